package io.microburst.runtime.task;

import java.util.List;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.utils.Utils;

/**
 * The {@link SpoutOutputCollector} a spout is opened with. Every overload goes straight to its task, in one call, for
 * the reason given on {@link BoltOutput}.
 *
 * <p>Threading: called by the spout on its executor thread, or by threads of the spout's own, one at a time, as
 * Storm's collector is.
 */
final class SpoutOutput extends SpoutOutputCollector {
    private final SpoutTask task;

    SpoutOutput(SpoutTask task) {
        super(task);
        this.task = task;
    }

    @Override
    public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
        return task.emit(streamId, tuple, messageId);
    }

    @Override
    public List<Integer> emit(List<Object> tuple, Object messageId) {
        return task.emit(Utils.DEFAULT_STREAM_ID, tuple, messageId);
    }

    @Override
    public List<Integer> emit(List<Object> tuple) {
        return task.emit(Utils.DEFAULT_STREAM_ID, tuple, null);
    }

    @Override
    public List<Integer> emit(String streamId, List<Object> tuple) {
        return task.emit(streamId, tuple, null);
    }

    @Override
    public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
        task.emitDirect(taskId, streamId, tuple, messageId);
    }

    @Override
    public void emitDirect(int taskId, List<Object> tuple, Object messageId) {
        task.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, tuple, messageId);
    }

    @Override
    public void emitDirect(int taskId, String streamId, List<Object> tuple) {
        task.emitDirect(taskId, streamId, tuple, null);
    }

    @Override
    public void emitDirect(int taskId, List<Object> tuple) {
        task.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, tuple, null);
    }

    @Override
    public long getPendingCount() {
        return task.getPendingCount();
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
