package org.apache.storm.testing;

import org.apache.storm.ILocalCluster;

/**
 * A test body that {@code Testing.withLocalCluster}, {@code withSimulatedTimeLocalCluster} and
 * {@code withTrackedCluster} run with the cluster they made.
 *
 * <p>Threading: run on the thread that called the {@code Testing} method.
 */
public interface TestJob {
    /** Runs the test against {@code cluster}, which is closed afterwards. */
    void run(ILocalCluster cluster) throws Exception;
}
