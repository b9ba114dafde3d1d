package io.microburst.bench.run;

import io.microburst.bench.RunOne;
import io.microburst.bench.result.ResultLine;
import io.microburst.bench.result.RunResult;
import io.microburst.bench.result.RunStatus;
import io.microburst.bench.runtime.FlinkRuntime;
import io.microburst.bench.runtime.RuntimeId;
import io.microburst.bench.runtime.TempDirs;
import io.microburst.bench.workload.BenchData;
import io.microburst.stormcluster.StormCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * Runs one {@link RunSpec} in a fresh JVM: {@code java} from this JVM's home, this JVM's class path (for a Flink run, the
 * Flink module's own, see {@link FlinkRuntime}), the same heap flags for every runtime, started from an argument list
 * (never a shell). The child's output goes to a log file; its result line is
 * read from there. A child that overruns is killed, and so is a running child when this JVM exits.
 *
 * <p>Each child gets a scratch directory of its own as {@code java.io.tmpdir} (and as the directory RocksDB unpacks its
 * native library into, for Storm's metrics store), deleted when the child has ended. A child ends with
 * {@code Runtime.halt}, which skips {@code deleteOnExit}, so without this every Storm run would leave a 14 MB copy of
 * {@code librocksdbjni} in the system's temporary directory.
 *
 * <p>Runs one child at a time; not thread-safe.
 */
public final class ChildLauncher {
    /** Time allowed beyond start-up limit, warm-up and window: JVM start, shutdown and a loaded machine. */
    static final long SLACK_SECONDS = 60;
    private static final long KILL_WAIT_SECONDS = 10;
    private static final String LOG_CONFIG = "microburst-bench-log4j2.xml";

    private final List<String> heap;
    private final double warmupSeconds;
    private final double measureSeconds;
    private final int startupLimitSeconds;
    private final Path logDir;
    private final String classPath;
    private final String mainClass;
    private final AtomicReference<Process> running = new AtomicReference<>();

    public ChildLauncher(List<String> heap, double warmupSeconds, double measureSeconds, int startupLimitSeconds, Path logDir,
                         String classPath) {
        this(heap, warmupSeconds, measureSeconds, startupLimitSeconds, logDir, classPath, RunOne.class.getName());
    }

    /** As the public constructor, with another entry point for the child (tests). */
    ChildLauncher(List<String> heap, double warmupSeconds, double measureSeconds, int startupLimitSeconds, Path logDir,
                  String classPath, String mainClass) {
        this.mainClass = mainClass;
        this.heap = List.copyOf(heap);
        this.warmupSeconds = warmupSeconds;
        this.measureSeconds = measureSeconds;
        this.startupLimitSeconds = startupLimitSeconds;
        this.logDir = logDir;
        this.classPath = classPath;
        Thread killer = new Thread(this::killRunning, "bench-child-killer");
        Runtime.getRuntime().addShutdownHook(killer);
    }

    /** The command that runs {@code spec}, with {@code scratch} as the child's temporary directory. */
    public List<String> command(RunSpec spec, Path scratch) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(heap);
        command.add("-Dlog4j2.configurationFile=" + LOG_CONFIG);
        command.add("-D" + BenchData.PROPERTY + "=" + BenchData.dir());
        command.add("-Djava.io.tmpdir=" + scratch);
        command.add("-cp");
        command.add(spec.runtime() == RuntimeId.FLINK ? FlinkRuntime.classPath().orElse(classPath) : classPath);
        command.add(mainClass);
        command.add(spec.workload().name());
        command.add(spec.runtime().id());
        command.add(String.valueOf(spec.round()));
        command.add(String.valueOf(warmupSeconds));
        command.add(String.valueOf(measureSeconds));
        command.add(String.valueOf(startupLimitSeconds));
        return command;
    }

    /** Longest a child may run before it is killed. */
    public long timeoutSeconds() {
        return (long) Math.ceil(startupLimitSeconds + warmupSeconds + measureSeconds) + SLACK_SECONDS;
    }

    /** Runs {@code spec} in a child JVM and returns what it reported, or a failed result saying why there is none. */
    public RunResult launch(RunSpec spec) throws InterruptedException {
        Path log = logDir.resolve(spec.key() + ".log");
        Path scratch;
        try {
            Files.createDirectories(logDir);
            scratch = Files.createTempDirectory("microburst-bench-child-");
        } catch (IOException e) {
            return failed(spec, "could not create the child's directories: " + e.getMessage(), log);
        }
        try {
            return run(spec, log, scratch);
        } finally {
            stopLeftClusters(scratch);
            if (!TempDirs.deleteTree(scratch)) {
                System.err.println("could not delete the child's scratch directory " + scratch);
            }
        }
    }

    private RunResult run(RunSpec spec, Path log, Path scratch) throws InterruptedException {
        Process process;
        try {
            ProcessBuilder builder = new ProcessBuilder(command(spec, scratch)).redirectErrorStream(true)
                .redirectOutput(log.toFile());
            builder.environment().remove("JAVA_TOOL_OPTIONS"); // identical flags for every runtime
            builder.environment().put("ROCKSDB_SHAREDLIB_DIR", scratch.toString());
            process = builder.start();
        } catch (IOException e) {
            return failed(spec, "could not start the child JVM: " + e.getMessage(), log);
        }
        running.set(process);
        try {
            if (!process.waitFor(timeoutSeconds(), TimeUnit.SECONDS)) {
                kill(process);
                return readResult(spec, log).orElse(failed(spec, "timed out after " + timeoutSeconds() + " s", log))
                    .withLog(log.toString());
            }
        } finally {
            if (process.isAlive()) {
                kill(process);
            }
            running.set(null);
        }
        int exit = process.exitValue();
        return readResult(spec, log).map(r -> r.withLog(log.toString()))
            .orElse(failed(spec, "the child JVM exited with code " + exit + " without a result", log));
    }

    /**
     * A child that is killed or halts before stopping its Storm cluster (storm-cluster-2w) leaves the cluster's processes
     * running without a parent; they keep their state in the child's scratch directory, so they are found and stopped here.
     */
    private static void stopLeftClusters(Path scratch) {
        try (Stream<Path> dirs = Files.list(scratch)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().startsWith("storm-cluster")).toList()) {
                Optional<StormCluster> cluster = StormCluster.attach(dir.resolve("cluster"));
                if (cluster.isPresent()) {
                    cluster.get().stop();
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("could not stop a Storm cluster left in " + scratch + ": " + e);
        }
    }

    private Optional<RunResult> readResult(RunSpec spec, Path log) {
        try {
            String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            return ResultLine.find(text.lines().toList());
        } catch (IOException | IllegalArgumentException e) {
            return Optional.of(failed(spec, "unreadable result: " + e.getMessage(), log));
        }
    }

    private static RunResult failed(RunSpec spec, String why, Path log) {
        return RunResult.notMeasured(spec.workload().name(), spec.workload().family(), spec.workload().parallelism(),
            spec.runtime().id(), spec.round(), RunStatus.FAILED, why, spec.workload().unit()).withLog(log.toString());
    }

    private void killRunning() {
        Process process = running.get();
        if (process != null) {
            kill(process);
        }
    }

    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroy();
        try {
            if (!process.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
