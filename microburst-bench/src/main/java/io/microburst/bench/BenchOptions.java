package io.microburst.bench;

import io.microburst.bench.runtime.RuntimeId;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of {@code microburst bench}. Explicit options win over what {@code --quick} implies, whatever their
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
 */
public record BenchOptions(boolean quick, List<String> only, List<RuntimeId> runtimes, int rounds, double warmupSeconds,
                           double measureSeconds, Path out, List<String> heap, int startupLimitSeconds, Path reportFrom,
                           boolean help) {
    /** Default heap flags of every child JVM. */
    public static final String DEFAULT_HEAP = "-Xmx2g";

    static final String USAGE = """
        usage: microburst bench [--quick] [--only NAME[,NAME...]] [--runtimes ID[,ID...]] [--rounds N]
                                [--warmup SECONDS] [--measure SECONDS] [--out DIR] [--heap "FLAGS"]
                                [--startup-limit SECONDS]
               microburst bench --report-from DIR
          --quick           one round, 1 s warm-up, 2 s measured, five workloads: under 5 minutes
          --only NAME       run only these workloads (a name, or a family such as wordcount); repeatable
          --runtimes IDS    any of microburst,storm,storm-tuned,ceiling-loop,ceiling-spsc,storm-cluster-2w
                            (default: all but storm-cluster-2w, which starts a real Storm cluster per run)
          --rounds N        rounds per workload and runtime (default 3), runtimes interleaved
          --warmup S        warm-up before measuring (default 10)
          --measure S       measurement window (default 20)
          --out DIR         results folder (default ./results/<UTC timestamp>/)
          --heap FLAGS      JVM flags for every runtime's JVM, space separated (default -Xmx2g)
          --startup-limit S longest wait for the first tuple (default 120)
          --report-from DIR rewrite the table, CSV and HTML report of an earlier bench from its results.json
        """;

    public BenchOptions {
        only = List.copyOf(only);
        runtimes = List.copyOf(runtimes);
        heap = List.copyOf(heap);
    }

    /** Parses {@code args}; throws {@link IllegalArgumentException} with a message for the user on a bad command line. */
    public static BenchOptions parse(String... args) {
        boolean quick = false;
        boolean help = false;
        List<String> only = new ArrayList<>();
        List<RuntimeId> runtimes = null;
        Integer rounds = null;
        Double warmup = null;
        Double measure = null;
        Path out = null;
        List<String> heap = null;
        int startupLimit = 120;
        Path reportFrom = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg;
            String inline = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                name = arg.substring(0, eq);
                inline = arg.substring(eq + 1);
            }
            switch (name) {
                case "--quick" -> quick = true;
                case "-h", "--help" -> help = true;
                case "--only" -> only.addAll(list(inline != null ? inline : value(args, ++i, name)));
                case "--runtimes" -> {
                    runtimes = new ArrayList<>();
                    for (String id : list(inline != null ? inline : value(args, ++i, name))) {
                        RuntimeId runtime = RuntimeId.of(id);
                        if (!runtimes.contains(runtime)) {
                            runtimes.add(runtime);
                        }
                    }
                }
                case "--rounds" -> rounds = positiveInt(inline != null ? inline : value(args, ++i, name), name);
                case "--warmup" -> warmup = seconds(inline != null ? inline : value(args, ++i, name), name, true);
                case "--measure" -> measure = seconds(inline != null ? inline : value(args, ++i, name), name, false);
                case "--out" -> out = Path.of(inline != null ? inline : value(args, ++i, name));
                case "--heap" -> heap = heapFlags(inline != null ? inline : value(args, ++i, name));
                case "--startup-limit" -> startupLimit = positiveInt(inline != null ? inline : value(args, ++i, name), name);
                case "--report-from" -> reportFrom = Path.of(inline != null ? inline : value(args, ++i, name));
                default -> throw new IllegalArgumentException("unknown option " + arg + "\n" + USAGE);
            }
        }
        if (runtimes != null && runtimes.isEmpty()) {
            throw new IllegalArgumentException("--runtimes needs at least one runtime");
        }
        return new BenchOptions(quick, only, runtimes == null ? RuntimeId.defaults() : runtimes,
            rounds != null ? rounds : quick ? 1 : 3,
            warmup != null ? warmup : quick ? 1 : 10,
            measure != null ? measure : quick ? 2 : 20,
            out != null ? out : defaultOut(), heap != null ? heap : List.of(DEFAULT_HEAP), startupLimit, reportFrom, help);
    }

    /** ./results/2026-01-31T12-00-00Z/ */
    static Path defaultOut() {
        return Path.of("results", ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss'Z'")));
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
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
