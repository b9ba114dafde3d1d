package io.microburst.bench.runtime;

/** A workload running on one runtime in this JVM; {@link #close()} stops it and everything it started. */
public interface Deployment extends AutoCloseable {
    @Override
    void close() throws Exception;
}
