package io.microburst.runtime.task;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;

/**
 * The {@link OutputCollector} a bolt is prepared with. Every overload goes straight to its task, in one call: Storm's
 * own collector passes an emit through two or three overloads first, and a fused chain inlines into its spout's loop
 * only while it stays within the JIT's inlining depth, where every call level counts. A single anchor is wrapped in a
 * list only when acking is on, so with acking off the input tuple is never passed on and can be scalar-replaced.
 *
 * <p>Threading: called by the bolt on its executor thread, or by threads of the bolt's own, one at a time, as Storm's
 * collector is.
 */
final class BoltOutput extends OutputCollector {
    private final BoltTask task;
    /** The task's acks, held here so that an ack costs no more loads than when the task did it. */
    private final BoltAcks acks;

    BoltOutput(BoltTask task) {
        super(task);
        this.task = task;
        this.acks = task.acks;
    }

    /** The task this collector emits into. */
    BoltTask task() {
        return task;
    }

    private Collection<Tuple> anchors(Tuple anchor) {
        return task.acking ? Collections.singletonList(anchor) : null;
    }

    @Override
    public List<Integer> emit(String streamId, Tuple anchor, List<Object> tuple) {
        return task.emit(streamId, anchors(anchor), tuple);
    }

    @Override
    public List<Integer> emit(String streamId, List<Object> tuple) {
        return task.emit(streamId, null, tuple);
    }

    @Override
    public List<Integer> emit(Collection<Tuple> anchors, List<Object> tuple) {
        return task.emit(Utils.DEFAULT_STREAM_ID, anchors, tuple);
    }

    @Override
    public List<Integer> emit(Tuple anchor, List<Object> tuple) {
        return task.emit(Utils.DEFAULT_STREAM_ID, anchors(anchor), tuple);
    }

    @Override
    public List<Integer> emit(List<Object> tuple) {
        return task.emit(Utils.DEFAULT_STREAM_ID, null, tuple);
    }

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        return task.emit(streamId, anchors, tuple);
    }

    @Override
    public void emitDirect(int taskId, String streamId, Tuple anchor, List<Object> tuple) {
        task.emitDirect(taskId, streamId, anchors(anchor), tuple);
    }

    @Override
    public void emitDirect(int taskId, String streamId, List<Object> tuple) {
        task.emitDirect(taskId, streamId, null, tuple);
    }

    @Override
    public void emitDirect(int taskId, Collection<Tuple> anchors, List<Object> tuple) {
        task.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, anchors, tuple);
    }

    @Override
    public void emitDirect(int taskId, Tuple anchor, List<Object> tuple) {
        task.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, anchors(anchor), tuple);
    }

    @Override
    public void emitDirect(int taskId, List<Object> tuple) {
        task.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, null, tuple);
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        task.emitDirect(taskId, streamId, anchors, tuple);
    }

    @Override
    public void ack(Tuple input) {
        acks.ack(input);
    }

    @Override
    public void fail(Tuple input) {
        acks.fail(input);
    }

    @Override
    public void resetTimeout(Tuple input) {
        acks.resetTimeout(input);
    }

    @Override
    public void reportError(Throwable error) {
        task.reportError(error);
    }

    @Override
    public void flush() {
        task.flush();
    }
}
