package io.microburst.runtime;

import java.util.Collection;
import java.util.List;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;

/** What a bolt's {@link org.apache.storm.task.OutputCollector} delegates to. */
final class BoltCollector implements IOutputCollector {
    private final BoltTask task;

    BoltCollector(BoltTask task) {
        this.task = task;
    }

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        return task.emit(streamId, anchors, tuple, -1);
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        if (taskId < 0) {
            throw new IllegalArgumentException("Component '" + task.componentId() + "' called emitDirect to task "
                + taskId + " on stream '" + streamId + "'");
        }
        task.emit(streamId, anchors, tuple, taskId);
    }

    @Override
    public void ack(Tuple input) {
        task.ack(input);
    }

    @Override
    public void fail(Tuple input) {
        task.fail(input);
    }

    @Override
    public void resetTimeout(Tuple input) {
        task.resetTimeout(input);
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
