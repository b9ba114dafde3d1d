package io.microburst.bench;

import io.microburst.bench.runtime.RuntimeId;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command line of {@code microburst bench}, read with picocli. Explicit options win over what {@code --quick} implies, whatever their
 * order. Immutable.
 *
 * @param quick a bench of a few minutes: one round, short windows, a few workloads
 * @param only workload or family names to run; empty for the default set
 * @param runtimes runtimes to compare, in interleaving order
 * @param rounds rounds per (workload, runtime)
 * @param warmupSeconds warm-up before each measurement
 * @param measureSeconds measurement window
 * @param out results folder
 * @param heap JVM flags every child gets, identical for all runtimes
 * @param startupLimitSeconds longest wait for the first tuple before a run counts as failed
 * @param reportFrom a results folder to re-render (no runs), or null
 * @param help whether to print usage and stop
 * @param version whether to print the version and stop
 */
public record BenchOptions(boolean quick, List<String> only, List<RuntimeId> runtimes, int rounds, double warmupSeconds,
                           double measureSeconds, Path out, List<String> heap, int startupLimitSeconds, Path reportFrom,
                           boolean help, boolean version) {
    /** Default heap flags of every child JVM. */
    public static final String DEFAULT_HEAP = "-Xmx2g";

    /** The usage text, from the picocli declaration of the options ({@link Args}). */
    static final String USAGE = new CommandLine(new Args()).getUsageMessage();

    /** The options as picocli reads them: text, checked and typed by {@link #parse}, so errors name what was typed. */
    @Command(name = "microburst bench", mixinStandardHelpOptions = true, sortOptions = false,
        versionProvider = Args.Version.class,
        description = "Runs the benchmark workloads side by side with Apache Storm's LocalCluster, each run in its own JVM.",
        footer = {"", "Explicit options win over what --quick implies, whatever their order."})
    static final class Args {
        @Option(names = "--quick", description = "One round, 1 s warm-up, 2 s measured, five workloads: under 5 minutes.")
        boolean quick;
        @Option(names = "--only", paramLabel = "NAME[,NAME...]",
            description = "Run only these workloads (a name, or a family such as wordcount); repeatable.")
        List<String> only = new ArrayList<>();
        @Option(names = "--runtimes", paramLabel = "ID[,ID...]",
            description = {"Any of microburst,storm,storm-tuned,flink,ceiling-loop,ceiling-spsc,storm-cluster-2w (default: all",
                "but storm-cluster-2w, which starts a real Storm cluster per run; flink needs the microburst-bench-flink",
                "module, built with -P flink)."})
        String runtimes;
        @Option(names = "--rounds", paramLabel = "N",
            description = "Rounds per workload and runtime (default 3), runtimes interleaved.")
        String rounds;
        @Option(names = "--warmup", paramLabel = "SECONDS", description = "Warm-up before measuring (default 10).")
        String warmup;
        @Option(names = "--measure", paramLabel = "SECONDS", description = "Measurement window (default 20).")
        String measure;
        @Option(names = "--out", paramLabel = "DIR", description = "Results folder (default ./results/<UTC timestamp>/).")
        String out;
        @Option(names = "--heap", paramLabel = "FLAGS",
            description = "JVM flags for every runtime's JVM, space separated (default -Xmx2g).")
        String heap;
        @Option(names = "--startup-limit", paramLabel = "SECONDS",
            description = "Longest wait for the first tuple (default 120).")
        String startupLimit;
        @Option(names = "--report-from", paramLabel = "DIR",
            description = "Rewrite the table, CSV and HTML report of an earlier bench from its results.json.")
        String reportFrom;

        /** The version line of {@code microburst bench --version}. */
        static final class Version implements CommandLine.IVersionProvider {
            @Override
            public String[] getVersion() {
                return new String[] {versionText()};
            }
        }
    }

    public BenchOptions {
        only = List.copyOf(only);
        runtimes = List.copyOf(runtimes);
        heap = List.copyOf(heap);
    }

    /**
     * Parses {@code args}; throws {@link IllegalArgumentException} with a message for the user on a bad command line
     * (an unknown option comes with suggestions and the usage).
     */
    public static BenchOptions parse(String... args) {
        CommandLine line = new CommandLine(new Args());
        ParseResult parsed;
        try {
            parsed = line.parseArgs(args);
        } catch (ParameterException e) {
            StringBuilder message = new StringBuilder(e.getMessage());
            if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
                message.append("\nDid you mean: ").append(String.join(" or ", unmatched.getSuggestions())).append('?');
            }
            throw new IllegalArgumentException(message.append('\n').append(USAGE).toString(), e);
        }
        Args a = line.getCommand();
        boolean help = parsed.isUsageHelpRequested();
        List<String> only = new ArrayList<>();
        for (String names : a.only) {
            only.addAll(list(names));
        }
        List<RuntimeId> runtimes = null;
        if (a.runtimes != null) {
            runtimes = new ArrayList<>();
            for (String id : list(a.runtimes)) {
                RuntimeId runtime = RuntimeId.of(id);
                if (!runtimes.contains(runtime)) {
                    runtimes.add(runtime);
                }
            }
            if (runtimes.isEmpty()) {
                throw new IllegalArgumentException("--runtimes needs at least one runtime");
            }
        }
        return new BenchOptions(a.quick, only, runtimes == null ? RuntimeId.defaults() : runtimes,
            a.rounds != null ? positiveInt(a.rounds, "--rounds") : a.quick ? 1 : 3,
            a.warmup != null ? seconds(a.warmup, "--warmup", true) : a.quick ? 1 : 10,
            a.measure != null ? seconds(a.measure, "--measure", false) : a.quick ? 2 : 20,
            a.out != null ? Path.of(a.out) : defaultOut(), a.heap != null ? heapFlags(a.heap) : List.of(DEFAULT_HEAP),
            a.startupLimit != null ? positiveInt(a.startupLimit, "--startup-limit") : 120,
            a.reportFrom != null ? Path.of(a.reportFrom) : null, help, parsed.isVersionHelpRequested());
    }

    /** The line {@code microburst bench --version} prints. */
    static String versionText() {
        String version = BenchOptions.class.getPackage().getImplementationVersion();
        return "microburst bench " + (version == null ? "(development build)" : version);
    }

    /** ./results/2026-01-31T12-00-00Z/ */
    static Path defaultOut() {
        return Path.of("results", ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss'Z'")));
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static int positiveInt(String value, String option) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " needs a positive whole number, not " + value);
    }

    private static double seconds(String value, String option, boolean zeroAllowed) {
        try {
            double s = Double.parseDouble(value);
            if (Double.isFinite(s) && (s > 0 || zeroAllowed && s == 0)) {
                return s;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " needs a number of seconds, not " + value);
    }

    private static List<String> heapFlags(String value) {
        List<String> flags = Arrays.stream(value.trim().split("\\s+")).filter(s -> !s.isEmpty()).toList();
        for (String flag : flags) {
            if (!flag.startsWith("-X")) {
                throw new IllegalArgumentException("--heap takes JVM -X flags such as -Xmx2g, not " + flag);
            }
        }
        return flags;
    }
}
