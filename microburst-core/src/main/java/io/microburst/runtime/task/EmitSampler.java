package io.microburst.runtime.task;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.utils.Utils;

/**
 * Storm's debug event logging ({@code debug/enable/PCT} from the UI, {@code Nimbus.debug}): a task hook that passes
 * the given percentage of a task's emits on user streams, chosen at random, to a {@link Sink}. It rides on the task's
 * hook list, which every task already checks per emit, so a task that samples nothing runs the code it runs otherwise.
 * Added and removed on the task's own executor thread ({@link #apply}); the sink is called on that thread.
 */
public final class EmitSampler extends BaseTaskHook {
    /** Where sampled emits go. Called on executor threads, concurrently. */
    public interface Sink {
        void emitted(String component, int taskId, String stream, List<Object> values);
    }

    private final String component;
    private final double pct;
    private final Sink sink;

    public EmitSampler(String component, double pct, Sink sink) {
        this.component = component;
        this.pct = pct;
        this.sink = sink;
    }

    @Override
    public void emit(EmitInfo info) {
        if (!Utils.isSystemId(info.stream) && ThreadLocalRandom.current().nextDouble() * 100 < pct) {
            sink.emitted(component, info.taskId, info.stream, info.values);
        }
    }

    /**
     * Replaces the task's sampler with {@code sampler} (none when null). Runs on the task's executor thread; a task
     * not yet opened or prepared gets its sampler with its context ({@link EventSampling#samplerFor}).
     */
    public static void apply(TaskRunner task, EmitSampler sampler) {
        if (task.context == null) {
            return;
        }
        List<ITaskHook> hooks = task.context.getHooks();
        hooks.removeIf(h -> h instanceof EmitSampler);
        if (sampler != null) {
            hooks.add(sampler);
        }
    }
}
