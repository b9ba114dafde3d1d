package io.microburst.it.support;

import java.util.Map;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.BoltAckInfo;
import org.apache.storm.hooks.info.BoltExecuteInfo;
import org.apache.storm.hooks.info.BoltFailInfo;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.hooks.info.SpoutAckInfo;
import org.apache.storm.hooks.info.SpoutFailInfo;
import org.apache.storm.task.TopologyContext;

/**
 * A task hook that records every callback as a {@link HookEvent} whose callback is prefixed by a label ("auto." or "added."), so a
 * test can tell hooks from topology.auto.task.hooks from hooks added with addTaskHook. Hooks listed in topology.auto.task.hooks are
 * created by class name, so they take their scope from the topology configuration key {@value #SCOPE_KEY}.
 */
public class RecordingTaskHook extends BaseTaskHook {
    public static final String SCOPE_KEY = "microburst.it.scope";
    private String scope;
    private String label;
    private String component;
    private int taskId;

    /** For topology.auto.task.hooks. */
    public RecordingTaskHook() {
        this(null, "auto");
    }

    /** For TopologyContext.addTaskHook. */
    public RecordingTaskHook(String scope, String label) {
        this.scope = scope;
        this.label = label;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context) {
        if (scope == null) {
            scope = String.valueOf(conf.get(SCOPE_KEY));
        }
        component = context.getThisComponentId();
        taskId = context.getThisTaskId();
        record("prepare", "");
    }

    @Override
    public void cleanup() {
        record("cleanup", "");
    }

    @Override
    public void emit(EmitInfo info) {
        record("emit", info.stream + " " + info.values + " from " + info.taskId + " to " + info.outTasks);
    }

    @Override
    public void spoutAck(SpoutAckInfo info) {
        record("spoutAck", String.valueOf(info.messageId));
    }

    @Override
    public void spoutFail(SpoutFailInfo info) {
        record("spoutFail", String.valueOf(info.messageId));
    }

    @Override
    public void boltExecute(BoltExecuteInfo info) {
        record("boltExecute", String.valueOf(info.tuple.getValues()));
    }

    @Override
    public void boltAck(BoltAckInfo info) {
        record("boltAck", String.valueOf(info.tuple.getValues()));
    }

    @Override
    public void boltFail(BoltFailInfo info) {
        record("boltFail", String.valueOf(info.tuple.getValues()));
    }

    private void record(String callback, String detail) {
        Recorder.record(scope, new HookEvent(component, taskId, label + "." + callback, detail));
    }
}
