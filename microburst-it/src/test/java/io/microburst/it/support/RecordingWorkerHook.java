package io.microburst.it.support;

import java.util.Map;
import org.apache.storm.hooks.IWorkerHook;
import org.apache.storm.task.WorkerUserContext;

/**
 * A worker hook that records start and shutdown and publishes a user resource, {@value #RESOURCE} = "hello " + scope, that tasks can
 * read with {@code TopologyContext.getResource}.
 */
public class RecordingWorkerHook implements IWorkerHook {
    public static final String RESOURCE = "greeting";
    private final String scope;

    public RecordingWorkerHook(String scope) {
        this.scope = scope;
    }

    @Override
    public void start(Map<String, Object> topoConf, WorkerUserContext context) {
        context.setResource(RESOURCE, "hello " + scope);
        Recorder.record(scope, new HookEvent("worker", -1, "start", String.valueOf(topoConf.get("topology.name"))));
    }

    @Override
    public void shutdown() {
        Recorder.record(scope, new HookEvent("worker", -1, "shutdown", ""));
    }
}
