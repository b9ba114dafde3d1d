package io.microburst.localcluster;

/**
 * The error for a Nimbus call that only means something on a cluster of daemons (log levels, profiling, debug
 * sampling, UI pages, supervisor heartbeats), made by {@code LocalCluster}, which runs every topology in this process.
 *
 * <p>Stateless.
 */
public final class NotInProcess {
    private NotInProcess() {
    }

    /** The exception to throw for the Nimbus call {@code call}. */
    public static UnsupportedOperationException call(String call) {
        return new UnsupportedOperationException("Nimbus." + call + " is not available on Microburst's LocalCluster: it "
            + "runs every topology in this process, without Nimbus, supervisor or worker daemons (microburst server "
            + "runs them behind a Nimbus Thrift service)");
    }
}
