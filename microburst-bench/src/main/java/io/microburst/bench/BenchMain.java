package io.microburst.bench;

import io.microburst.bench.result.BenchMeta;
import io.microburst.bench.result.ResultsFiles;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.result.SummaryRow;
import io.microburst.bench.result.TerminalTable;
import io.microburst.bench.run.BenchPlan;
import io.microburst.bench.run.ChildLauncher;
import io.microburst.bench.run.EtaEstimator;
import io.microburst.bench.run.Progress;
import io.microburst.bench.run.RunSpec;
import io.microburst.bench.runtime.FlinkRuntime;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.workload.BenchData;
import io.microburst.bench.workload.Workload;
import io.microburst.bench.workload.WorkloadCatalog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code microburst bench}: runs every selected workload on every selected runtime, each run in its own JVM, interleaved,
 * for a number of rounds; prints the summary table and writes JSON, CSV and an HTML report to the results folder.
 */
public final class BenchMain {
    /** Said once, and as the reason of every Flink run, when the Flink module has not been built. */
    static final String FLINK_MISSING = "flink: skipped, its jars are not built (they are kept out of the default build); "
        + FlinkRuntime.HOW_TO_BUILD;

    private BenchMain() {
    }

    public static void main(String[] args) {
        int exit;
        try {
            exit = run(BenchOptions.parse(args), System.out, Progress.terminalIsLive());
        } catch (IllegalArgumentException e) {
            System.err.println("microburst bench: " + e.getMessage());
            exit = 2;
        }
        System.exit(exit);
    }

    /**
     * Runs the bench; returns the process exit code: 0 when every attempted run measured something, 1 when some failed,
     * 2 on a bad command line.
     */
    public static int run(BenchOptions options, PrintStream out, boolean liveProgress) {
        if (options.version()) {
            out.println(BenchOptions.versionText());
            return 0;
        }
        if (options.help()) {
            out.print(BenchOptions.USAGE);
            return 0;
        }
        if (options.reportFrom() != null) {
            return rerender(options.reportFrom(), out);
        }
        List<Workload> workloads;
        try {
            workloads = options.only().isEmpty()
                ? (options.quick() ? WorkloadCatalog.quick() : WorkloadCatalog.all())
                : WorkloadCatalog.select(options.only());
        } catch (IllegalArgumentException e) {
            out.println(e.getMessage());
            return 2;
        }
        List<RunSpec> plan = BenchPlan.of(workloads, options.runtimes(), options.rounds());
        Path outDir = options.out().toAbsolutePath();
        BenchMeta meta = new BenchMeta(now(), null, Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"), System.getProperty("os.name") + " " + System.getProperty("os.version"),
            options.rounds(), options.warmupSeconds(), options.measureSeconds(), String.join(" ", options.heap()),
            options.runtimes().stream().map(RuntimeId::id).toList(), workloads.stream().map(Workload::name).toList(),
            options.quick());
        ResultsFiles files = new ResultsFiles(outDir);
        ChildLauncher launcher = new ChildLauncher(options.heap(), options.warmupSeconds(), options.measureSeconds(),
            options.startupLimitSeconds(), outDir.resolve("logs"), System.getProperty("java.class.path"));
        EtaEstimator eta = new EtaEstimator(options.warmupSeconds() + options.measureSeconds());
        List<RunResult> results = new ArrayList<>();
        List<SummaryRow> summary;
        try (Progress progress = new Progress(out, liveProgress)) {
            progress.message("Bench of " + workloads.size() + " workload(s) on " + options.runtimes().size()
                + " runtime(s), " + options.rounds() + " round(s); results in " + outDir);
            if (workloads.stream().anyMatch(w -> w.family().startsWith("enron"))) {
                progress.message("Preparing the email data set in " + BenchData.dir() + " ...");
                BenchData.emails();
            }
            boolean flinkMissing = options.runtimes().contains(RuntimeId.FLINK) && FlinkRuntime.classPath().isEmpty();
            if (flinkMissing) {
                progress.message(FLINK_MISSING);
            }
            for (int i = 0; i < plan.size(); i++) {
                RunSpec spec = plan.get(i);
                RunResult result;
                if (flinkMissing && spec.runtime() == RuntimeId.FLINK && spec.runtime().supports(spec.workload())) {
                    result = RunResult.notMeasured(spec.workload().name(), spec.workload().family(),
                        spec.workload().parallelism(), spec.runtime().id(), spec.round(), RunStatus.SKIPPED, FLINK_MISSING,
                        spec.workload().unit());
                } else if (!spec.runtime().supports(spec.workload())) {
                    result = RunResult.notMeasured(spec.workload().name(), spec.workload().family(),
                        spec.workload().parallelism(), spec.runtime().id(), spec.round(), RunStatus.SKIPPED,
                        spec.runtime().id() + " has no implementation of " + spec.workload().name(), spec.workload().unit());
                } else {
                    progress.started(spec, i + 1, plan.size(), eta.remainingSeconds(plan.subList(i, plan.size())));
                    long start = System.nanoTime();
                    result = launcher.launch(spec);
                    eta.observe(spec.runtime(), (System.nanoTime() - start) / 1e9);
                    progress.finished(result);
                }
                results.add(result);
                files.write(meta, results);
            }
            summary = files.write(meta.finishedAt(now()), results);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.println("interrupted; partial results are in " + outDir);
            return 1;
        } catch (IOException e) {
            out.println("could not write results to " + outDir + ": " + e.getMessage());
            return 1;
        }
        printTable(out, summary, meta, outDir);
        long failed = results.stream().filter(r -> r.status() == RunStatus.FAILED).count();
        if (failed > 0) {
            out.println(failed + " run(s) failed; see the logs in " + outDir.resolve("logs"));
            return 1;
        }
        return 0;
    }

    /** Rewrites the derived files of an earlier bench from its {@code results.json} and prints its table. */
    static int rerender(Path dir, PrintStream out) {
        try {
            ResultsFiles.Document document = ResultsFiles.read(dir.resolve(ResultsFiles.JSON));
            List<SummaryRow> summary = new ResultsFiles(dir).write(document.meta(), document.runs());
            printTable(out, summary, document.meta(), dir.toAbsolutePath());
            return 0;
        } catch (IOException e) {
            out.println("could not re-render " + dir + ": " + e.getMessage());
            return 1;
        }
    }

    private static void printTable(PrintStream out, List<SummaryRow> summary, BenchMeta meta, Path outDir) {
        out.println();
        out.print(TerminalTable.render(summary));
        out.println();
        out.println("Throughput is the median of rounds at the last component; \"vs\" columns divide by the Storm medians, "
            + "\"of\" columns by the ceilings. Machine: " + meta.cores() + " cores.");
        out.println("Results: " + outDir.resolve(ResultsFiles.JSON) + ", runs.csv, summary.csv, report.html");
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
