package io.microburst.runtime;

import java.util.List;
import org.apache.storm.spout.ISpoutOutputCollector;

/** What a spout's {@link org.apache.storm.spout.SpoutOutputCollector} delegates to. */
final class SpoutCollector implements ISpoutOutputCollector {
    private final SpoutTask task;

    SpoutCollector(SpoutTask task) {
        this.task = task;
    }

    @Override
    public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
        return task.emit(streamId, tuple, messageId, -1);
    }

    @Override
    public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
        if (taskId < 0) {
            throw new IllegalArgumentException("Component '" + task.componentId() + "' called emitDirect to task "
                + taskId + " on stream '" + streamId + "'");
        }
        task.emit(streamId, tuple, messageId, taskId);
    }

    @Override
    public long getPendingCount() {
        return task.inFlight();
    }

    @Override
    public void flush() {
        if (task.executor.isOwnThread()) {
            task.executor.flushAll();
        }
    }

    @Override
    public void reportError(Throwable error) {
        task.topology.reportError(task, error);
    }
}
