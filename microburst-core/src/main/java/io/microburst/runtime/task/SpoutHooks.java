package io.microburst.runtime.task;

import java.util.List;
import io.microburst.reliability.TupleTree;
import org.apache.storm.hooks.ITaskHook;
import org.apache.storm.hooks.info.SpoutAckInfo;
import org.apache.storm.hooks.info.SpoutFailInfo;
import org.apache.storm.tuple.Values;

/**
 * The hooks of a spout task, called as Storm calls them: after an emit (with the init message Storm's spout sends its
 * acker), after the spout's ack and after its fail. The task checks its hook list itself and calls here only when it
 * is not empty. A hook that throws in an ack or fail is the task's failure. The spout's executor thread only.
 */
final class SpoutHooks {
    private SpoutHooks() {
    }

    /** The emit's hooks, then, for a tracked emit, those of the init message Storm's spout sends its acker. */
    static void emitted(SpoutTask task, List<Object> values, String streamId, List<Integer> out, boolean tracked,
                        long[] edges, TupleTree newest) {
        task.emitHooks(values, streamId, out);
        if (tracked) {
            long ackVal = 0;
            for (int i = 0, n = Math.min(out.size(), edges.length); i < n; i++) {
                ackVal ^= edges[i];
            }
            long root = newest == null ? 0 : newest.rootId();
            task.ackerEmitHooks("__ack_init", new Values(root, ackVal, task.taskId));
        }
    }

    /** After the spout's ack; {@code completeNanos} is the sampled complete latency, or -1. */
    static void acked(SpoutTask task, Object messageId, long completeNanos) {
        SpoutAckInfo info = new SpoutAckInfo(messageId, task.taskId, millis(completeNanos));
        try {
            for (ITaskHook hook : task.hooks) {
                hook.spoutAck(info);
            }
        } catch (Throwable t) {
            hookFailed(task, t, "task hook spoutAck");
        }
    }

    /** After the spout's fail; {@code nanos} is the sampled latency, or -1. */
    static void failed(SpoutTask task, Object messageId, long nanos) {
        SpoutFailInfo info = new SpoutFailInfo(messageId, task.taskId, millis(nanos));
        try {
            for (ITaskHook hook : task.hooks) {
                hook.spoutFail(info);
            }
        } catch (Throwable t) {
            hookFailed(task, t, "task hook spoutFail");
        }
    }

    private static Long millis(long nanos) {
        return nanos < 0 ? null : nanos / 1_000_000;
    }

    /** A hook threw: the task's failure while its instance is up, else only its error. */
    private static void hookFailed(SpoutTask task, Throwable t, String phase) {
        if (task.up) {
            task.failed(t, phase);
        } else {
            task.host.reportError(task, t);
        }
    }
}
