package io.microburst.collector;

import java.util.Collection;
import java.util.List;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.tuple.Tuple;

/**
 * A bolt collector that hands every call to another one; a wrapper that looks at emits overrides just those.
 *
 * <p>Threading: as the collector it forwards to.
 */
public abstract class ForwardingOutputCollector implements IOutputCollector {
    protected final IOutputCollector delegate;

    protected ForwardingOutputCollector(IOutputCollector delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        return delegate.emit(streamId, anchors, tuple);
    }

    @Override
    public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
        delegate.emitDirect(taskId, streamId, anchors, tuple);
    }

    @Override
    public void ack(Tuple input) {
        delegate.ack(input);
    }

    @Override
    public void fail(Tuple input) {
        delegate.fail(input);
    }

    @Override
    public void resetTimeout(Tuple input) {
        delegate.resetTimeout(input);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public void reportError(Throwable error) {
        delegate.reportError(error);
    }
}
