package io.microburst.runtime.task;

/**
 * Whether what a task's call threw is the interrupt of a stop rather than a failure of user code: an interrupt among
 * its causes, as Storm's executor loop sees it. Any thread.
 */
final class StopInterrupt {
    private StopInterrupt() {
    }

    static boolean causedBy(Throwable error) {
        Throwable t = error;
        for (int depth = 0; t != null && depth < 64; depth++, t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
                || t instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }
}
