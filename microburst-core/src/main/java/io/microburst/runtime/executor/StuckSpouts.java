package io.microburst.runtime.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import io.microburst.runtime.task.SpoutTask;

/**
 * A stop's look at an executor thread that may be stuck inside a spout call: reads the thread's stack, and gives up on
 * the thread by closing its spouts from outside. Stopping thread only; never on the executor's own.
 */
final class StuckSpouts {
    /** The runtime's own packages: the innermost of their frames on a stack is where user code was called from. */
    private static final String RUNTIME_PACKAGE = "io.microburst.runtime.";

    private StuckSpouts() {
    }

    /**
     * The frame of the spout method {@code thread} is inside of, or null: user code is running on top of a
     * {@link SpoutTask} frame, the innermost frame of the runtime on its stack (a spout blocked in an emit waits in the
     * runtime's queues instead; the runtime's own code between two calls is no call).
     */
    static StackTraceElement callFrame(Thread thread) {
        StackTraceElement[] stack = thread.getStackTrace();
        for (int i = 0; i < stack.length; i++) {
            String type = stack[i].getClassName();
            if (type.startsWith(RUNTIME_PACKAGE)) {
                boolean spoutTask = type.equals(SpoutTask.class.getName())
                    || type.startsWith(SpoutTask.class.getName() + "$");
                return i > 0 && spoutTask ? stack[i - 1] : null;
            }
        }
        return null;
    }

    /**
     * Gives up on the thread of {@code spouts}: bars any further call from it into them, then, if it is still inside a
     * spout call ({@code callFrame}, read after the bar), closes them from the calling thread, unless their own thread
     * came back and closed them first (see {@link SpoutTask#closeFromStopper}).
     *
     * @return the spout tasks closed here and the call; null if none was
     */
    static ReleasedSpouts giveUp(SpoutTask[] spouts, Supplier<StackTraceElement> callFrame) {
        for (SpoutTask spout : spouts) {
            spout.barByStop();
        }
        StackTraceElement call = callFrame.get();
        if (call == null) {
            return null;
        }
        List<String> closed = new ArrayList<>();
        for (SpoutTask spout : spouts) {
            if (spout.closeFromStopper()) {
                closed.add(spout.componentId() + ":" + spout.taskId());
            }
        }
        return closed.isEmpty() ? null : new ReleasedSpouts(closed, call);
    }
}
