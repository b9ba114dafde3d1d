package io.microburst.localcluster;

import io.microburst.MicroburstCluster;
import java.util.function.BooleanSupplier;
import org.apache.storm.ILocalCluster;
import org.apache.storm.utils.Time;

/**
 * One step of a test's wait for a condition on a cluster ({@code trackedWait}, {@code completeTopology}): wait until
 * the cluster's executors are idle, and if the condition still does not hold, let time pass: a simulated second
 * (what a tuple waiting for a timeout or a tick needs), or a millisecond of real time. The caller checks the condition
 * and its deadline between steps.
 *
 * <p>Runs on the test's thread.
 */
public final class Settle {
    private Settle() {
    }

    /** Waits until {@code cluster}'s executors are idle (up to Storm's test timeout), or a millisecond. */
    public static void idle(ILocalCluster cluster) throws InterruptedException {
        MicroburstCluster engine = Engines.of(cluster);
        if (engine != null) {
            engine.waitForIdle();
        } else {
            Thread.sleep(1);
        }
    }

    /** One step towards {@code done} on {@code cluster}. */
    public static void step(ILocalCluster cluster, BooleanSupplier done) {
        try {
            MicroburstCluster engine = Engines.of(cluster);
            if (engine != null) {
                engine.waitForIdle();
                if (done.getAsBoolean()) {
                    return;
                }
            }
            if (Time.isSimulating()) {
                cluster.advanceClusterTime(1);
            } else {
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the cluster", e);
        }
    }
}
