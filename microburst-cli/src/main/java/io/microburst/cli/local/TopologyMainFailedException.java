package io.microburst.cli.local;

/** The topology jar's main threw; the cause is what it threw. */
public final class TopologyMainFailedException extends Exception {
    private static final long serialVersionUID = 1L;

    TopologyMainFailedException(String mainClass, Throwable cause) {
        super(mainClass + ".main failed: " + cause, cause);
    }
}
