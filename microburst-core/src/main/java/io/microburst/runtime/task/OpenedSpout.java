package io.microburst.runtime.task;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.spout.ISpout;

/**
 * A spout task's opened instance not yet closed: whoever takes it closes it, the task's own thread (a restart, a
 * stop) or the stopping thread that gave up on that thread (see {@link SpoutTask#closeFromStopper}), so the instance
 * is closed once. Only an opened instance is ever closed, as in Storm. Any thread.
 */
final class OpenedSpout {
    private final AtomicReference<ISpout> toClose = new AtomicReference<>();

    /** The task's thread opened {@code spout}. */
    void opened(ISpout spout) {
        toClose.set(spout);
    }

    /**
     * Closes the opened instance unless another thread took it first; what close throws is the task's error. True if
     * this call closed it.
     */
    boolean closeIfNotTaken(TaskRunner task) {
        ISpout opened = toClose.getAndSet(null);
        if (opened == null) {
            return false;
        }
        task.endQuietly(opened::close);
        return true;
    }
}
