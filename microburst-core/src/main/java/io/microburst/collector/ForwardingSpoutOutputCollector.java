package io.microburst.collector;

import java.util.List;
import org.apache.storm.spout.ISpoutOutputCollector;

/**
 * A spout collector that hands every call to another one; a wrapper that looks at emits overrides just those.
 *
 * <p>Threading: as the collector it forwards to.
 */
public abstract class ForwardingSpoutOutputCollector implements ISpoutOutputCollector {
    protected final ISpoutOutputCollector delegate;

    protected ForwardingSpoutOutputCollector(ISpoutOutputCollector delegate) {
        this.delegate = delegate;
    }

    @Override
    public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
        return delegate.emit(streamId, tuple, messageId);
    }

    @Override
    public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
        delegate.emitDirect(taskId, streamId, tuple, messageId);
    }

    @Override
    public long getPendingCount() {
        return delegate.getPendingCount();
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
