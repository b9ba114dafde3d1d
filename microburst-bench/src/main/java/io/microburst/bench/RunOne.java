package io.microburst.bench;

import io.microburst.bench.result.ResultLine;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.run.Measurement;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.Workload;
import io.microburst.bench.workload.WorkloadCatalog;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Child entry point: runs one workload on one runtime in this fresh JVM and prints exactly one {@link ResultLine} to
 * standard output, then ends the JVM (whatever threads the runtime left behind).
 *
 * <p>Usage: {@code RunOne WORKLOAD RUNTIME ROUND WARMUP_SECONDS MEASURE_SECONDS STARTUP_LIMIT_SECONDS}. A watchdog ends the
 * JVM with a failed result if the run overruns its time, and gives a runtime a bounded time to shut down after reporting.
 */
public final class RunOne {
    /** How long a runtime may take to shut down after the result is printed. */
    static final long SHUTDOWN_GRACE_SECONDS = 20;

    private RunOne() {
    }

    public static void main(String[] args) {
        PrintStream out = System.out;
        if (args.length != 6) {
            System.err.println("usage: RunOne WORKLOAD RUNTIME ROUND WARMUP_S MEASURE_S STARTUP_LIMIT_S");
            Runtime.getRuntime().halt(2);
        }
        Workload workload = WorkloadCatalog.byName(args[0])
            .orElseThrow(() -> new IllegalArgumentException("unknown workload " + args[0]));
        RuntimeId runtime = RuntimeId.of(args[1]);
        int round = Integer.parseInt(args[2]);
        Duration warmup = Duration.ofMillis(Math.round(Double.parseDouble(args[3]) * 1000));
        Duration window = Duration.ofMillis(Math.round(Double.parseDouble(args[4]) * 1000));
        Duration startupLimit = Duration.ofSeconds(Long.parseLong(args[5]));

        long overrunSeconds = startupLimit.toSeconds() + warmup.toSeconds() + window.toSeconds() + 30;
        Object printLock = new Object();
        boolean[] printed = new boolean[1];
        Thread watchdog = new Thread(() -> {
            try {
                TimeUnit.SECONDS.sleep(overrunSeconds);
            } catch (InterruptedException e) {
                return;
            }
            synchronized (printLock) {
                if (!printed[0]) {
                    out.println(ResultLine.format(RunResult.notMeasured(workload.name(), workload.family(),
                        workload.parallelism(), runtime.id(), round, RunStatus.FAILED,
                        "the run overran " + overrunSeconds + " s", workload.unit())));
                    out.flush();
                }
            }
            Runtime.getRuntime().halt(3);
        }, "run-one-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        long begin = System.nanoTime();
        new Measurement(workload, runtime, round, warmup, window, startupLimit).run(result -> {
            synchronized (printLock) {
                out.println(ResultLine.format(result));
                out.flush();
                printed[0] = true;
            }
            // From here on only the shutdown is left: bound it.
            Thread grace = new Thread(() -> {
                try {
                    TimeUnit.SECONDS.sleep(SHUTDOWN_GRACE_SECONDS);
                    System.err.println("runtime did not shut down within " + SHUTDOWN_GRACE_SECONDS + " s; ending the JVM");
                    Runtime.getRuntime().halt(0);
                } catch (InterruptedException ignored) {
                    // shut down in time
                }
            }, "run-one-shutdown-grace");
            grace.setDaemon(true);
            grace.start();
        });
        out.flush();
        System.err.printf("run took %.1f s including shutdown%n", (System.nanoTime() - begin) / 1e9);
        // Runtimes may leave non-daemon threads behind; the result is out, so end the JVM without waiting for them.
        Runtime.getRuntime().halt(0);
    }
}
