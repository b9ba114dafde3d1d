package io.microburst.bench.result;

import java.util.List;

/** Builders of made-up results for tests. */
final class TestRuns {
    private TestRuns() {
    }

    static RunResult ok(String workload, String runtime, int round, double throughput) {
        return new RunResult(workload, workload, 1, runtime, round, RunStatus.OK, null, "tuples/s", throughput,
            (long) throughput, 1.0, null, 1.5, 20, 100L << 20, 1500, null);
    }

    static RunResult withLatency(String workload, String runtime, int round, double throughput, double p99) {
        LatencySummary latency = new LatencySummary("end-to-end", 1000, p99 / 10, p99, p99 * 2, p99 * 3, p99 / 8,
            List.of(new CdfPoint(0, p99 / 100), new CdfPoint(50, p99 / 10), new CdfPoint(99, p99), new CdfPoint(100, p99 * 3)));
        RunResult base = ok(workload, runtime, round, throughput);
        return new RunResult(base.workload(), base.family(), base.parallelism(), base.runtime(), base.round(), base.status(),
            null, base.unit(), base.throughput(), base.delivered(), base.windowSeconds(), latency, base.cpuCores(),
            base.threads(), base.rssBytes(), base.startupMillis(), null);
    }

    static RunResult scaled(String family, int parallelism, String runtime, double throughput) {
        return new RunResult(family + "-p" + parallelism, family, parallelism, runtime, 1, RunStatus.OK, null, "words/s",
            throughput, (long) throughput, 1.0, null, 1.0, 10, 1L << 20, 100, null);
    }

    static RunResult failed(String workload, String runtime, int round, String why) {
        return RunResult.notMeasured(workload, workload, 1, runtime, round, RunStatus.FAILED, why, "tuples/s");
    }

    static RunResult skipped(String workload, String runtime, int round) {
        return RunResult.notMeasured(workload, workload, 1, runtime, round, RunStatus.SKIPPED, "n/a", "tuples/s");
    }
}
