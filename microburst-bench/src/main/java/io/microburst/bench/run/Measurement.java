package io.microburst.bench.run;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.result.LatencySummary;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.probe.LayoutProbe;
import io.microburst.bench.runtime.Deployment;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.runtime.Runtimes;
import io.microburst.bench.workload.LatencyKind;
import io.microburst.bench.workload.Workload;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Measures one workload on one runtime in this JVM: start it, wait for the first tuple at the last component (start-up
 * time), warm up, then measure throughput, latency, CPU, threads and resident memory over a fixed window, and stop it.
 * Runs on the calling thread; meant to be the only measurement in its JVM (the probes are process-wide).
 */
public final class Measurement {
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Microburst names its executor threads so: the layout each run measured is logged from them. */
    private static final String LAYOUT_PREFIX = "microburst-";

    private final Workload workload;
    private final RuntimeId runtime;
    private final int round;
    private final Duration warmup;
    private final Duration window;
    private final Duration startupLimit;

    public Measurement(Workload workload, RuntimeId runtime, int round, Duration warmup, Duration window,
                       Duration startupLimit) {
        this.workload = workload;
        this.runtime = runtime;
        this.round = round;
        Duration least = Duration.ofSeconds(workload.minWarmupSeconds());
        this.warmup = warmup.compareTo(least) < 0 ? least : warmup;
        this.window = window;
        this.startupLimit = startupLimit;
    }

    /**
     * Runs the measurement and hands the result to {@code report} as soon as it is known, before the runtime is stopped (a
     * slow shutdown must not hold the result back); failures come back as a {@link RunStatus#FAILED} result, never as an
     * exception. Returns the same result.
     */
    public RunResult run(Consumer<RunResult> report) {
        if (!runtime.supports(workload)) {
            RunResult skipped = notMeasured(RunStatus.SKIPPED, runtime.id() + " has no implementation of " + workload.name());
            report.accept(skipped);
            return skipped;
        }
        Probes.reset();
        Deployment deployment = null;
        RunResult result;
        try {
            // Building the topology (and the first use of Storm's classes and logging) is not part of start-up.
            Runtimes.Launch launch = Runtimes.prepare(runtime, workload);
            long startNanos = System.nanoTime();
            deployment = launch.start();
            result = measure(deployment, startNanos);
        } catch (Throwable e) {
            result = notMeasured(RunStatus.FAILED, describe(e));
        }
        try {
            report.accept(result);
        } finally {
            if (deployment != null) {
                stopQuietly(deployment);
            }
        }
        return result;
    }

    private RunResult measure(Deployment deployment, long startNanos) throws InterruptedException {
        long firstTuple = awaitFirstTuple(deployment, startNanos);
        if (firstTuple == 0) {
            return notMeasured(RunStatus.FAILED, "no tuple reached the last component within " + startupLimit.toSeconds() + " s");
        }
        double startupMillis = (firstTuple - startNanos) / 1e6;
        sleepNanos(warmup.toNanos());

        Probes.discardLatency();
        LayoutProbe layout = new LayoutProbe(LAYOUT_PREFIX);
        layout.start();
        System.err.println("layout at the start of the measured window: " + layout.names());
        long cpuBefore = deployment.cpuNanos();
        long countBefore = deployment.delivered();
        long before = System.nanoTime();
        sleepNanos(window.toNanos());
        long countAfter = deployment.delivered();
        long after = System.nanoTime();
        long cpuAfter = deployment.cpuNanos();
        Histogram latency = Probes.takeLatency();
        System.err.println("layout at the end of the measured window (cores over it): " + layout.describe());
        int threads = deployment.threads();
        long rss = deployment.residentBytes();

        double seconds = (after - before) / 1e9;
        long delivered = countAfter - countBefore;
        double cpuCores = cpuBefore < 0 || cpuAfter < 0 ? Double.NaN : (cpuAfter - cpuBefore) / (double) (after - before);
        LatencySummary summary = workload.latency() == LatencyKind.NONE || latency.getTotalCount() == 0
            ? null : LatencySummary.of(workload.latency().label(), latency);
        return new RunResult(workload.name(), workload.family(), workload.parallelism(), runtime.id(), round, RunStatus.OK,
            null, workload.unit(), delivered / seconds, delivered, seconds, summary, cpuCores, threads, rss, startupMillis,
            null);
    }

    private long awaitFirstTuple(Deployment deployment, long startNanos) throws InterruptedException {
        long deadline = startNanos + startupLimit.toNanos();
        while (System.nanoTime() - deadline < 0) {
            long first = deployment.firstTupleNanos();
            if (first != 0) {
                return first;
            }
            sleepNanos(POLL_NANOS);
        }
        return deployment.firstTupleNanos();
    }

    private static void sleepNanos(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    private RunResult notMeasured(RunStatus status, String why) {
        return RunResult.notMeasured(workload.name(), workload.family(), workload.parallelism(), runtime.id(), round, status,
            why, workload.unit());
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = e.getClass().getName() + ": " + e.getMessage();
        return root == e ? message : message + " (caused by " + root.getClass().getName() + ": " + root.getMessage() + ")";
    }

    private static void stopQuietly(Deployment deployment) {
        try {
            deployment.close();
        } catch (Throwable e) {
            System.err.println("stopping the runtime failed: " + e);
        }
    }
}
