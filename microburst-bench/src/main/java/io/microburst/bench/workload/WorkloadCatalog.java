package io.microburst.bench.workload;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every workload of the suite, in the order they run and report, and the subset {@code --quick} runs. The workloads
 * themselves are built by family: {@link MessagingWorkloads}, {@link AppWorkloads}, {@link OrdinaryWorkloads},
 * {@link LatencyWorkloads}, {@link ChainWorkloads}, {@link ScoringWorkloads}, with the Microburst-only {@link WorkloadVariants} of some of them. Stateless.
 */
public final class WorkloadCatalog {
    /** Highest WordCount parallelism (the scaling curve runs 1 to this). */
    public static final int MAX_WORDCOUNT_PARALLELISM = 4;
    /** Highest Enron parallelism. */
    public static final int MAX_ENRON_PARALLELISM = 2;
    /** Parallelisms of the ordinary WordCount. */
    public static final List<Integer> ORDINARY_WORDCOUNT_PARALLELISMS = List.of(1, 2, 4);
    /**
     * Microburst's placement setting: {@code auto} (cost-based) or {@code static} (the layout fixed from the topology's
     * shape). Storm ignores the key.
     */
    public static final String PLACEMENT = "microburst.placement";
    /** Name suffix of the variants that run Microburst with {@code microburst.placement=static}. */
    public static final String STATIC_SUFFIX = "-static";

    /**
     * Workloads {@code --quick} runs: messaging, acking with complete latency, a scaling pair and low-load latency, so every
     * part of the report appears; Storm's ~20 s of cluster start and stop per run is what limits how many fit in 5 minutes.
     */
    private static final List<String> QUICK = List.of("const-null", "const-null-ack-mp1000", "wordcount-p1", "wordcount-p2",
        "latency-1-per-ms");

    private WorkloadCatalog() {
    }

    /** All workloads, in report order. */
    public static List<Workload> all() {
        List<Workload> all = new ArrayList<>();
        all.add(MessagingWorkloads.spoutEmit());
        all.add(MessagingWorkloads.constNull(false, null));
        all.add(WorkloadVariants.unfused(MessagingWorkloads.constNull(false, null)));
        all.add(MessagingWorkloads.constNull(true, null));
        all.add(MessagingWorkloads.constNull(true, 1000));
        all.add(MessagingWorkloads.constIdNull(false));
        all.add(WorkloadVariants.unfused(MessagingWorkloads.constIdNull(false)));
        all.add(MessagingWorkloads.constIdNull(true));
        for (int p = 1; p <= MAX_WORDCOUNT_PARALLELISM; p++) {
            all.add(AppWorkloads.wordCount(p));
        }
        all.add(WorkloadVariants.fusedPlacement(AppWorkloads.wordCount(1)));
        all.add(AppWorkloads.wordCountAcked());
        all.add(AppWorkloads.rollingSort());
        for (int p : ORDINARY_WORDCOUNT_PARALLELISMS) {
            all.add(OrdinaryWorkloads.ordinaryWordCount(p));
            all.add(WorkloadVariants.staticPlacement(OrdinaryWorkloads.ordinaryWordCount(p)));
        }
        all.add(WorkloadVariants.eagerPlacement(OrdinaryWorkloads.ordinaryWordCount(1)));
        for (int executors = 1; executors < OrdinaryWorkloads.AUTO_TASKS; executors *= 2) {
            all.add(OrdinaryWorkloads.ordinaryWordCountExecutors(executors, false));
        }
        all.add(OrdinaryWorkloads.ordinaryWordCountExecutors(1, true));
        all.add(OrdinaryWorkloads.ordinaryRollingSort());
        all.add(WorkloadVariants.staticPlacement(OrdinaryWorkloads.ordinaryRollingSort()));
        for (int p : ScoringWorkloads.PARALLELISMS) {
            all.add(ScoringWorkloads.scoring(p));
        }
        all.add(OrdinaryWorkloads.slowBolt());
        all.add(WorkloadVariants.staticPlacement(OrdinaryWorkloads.slowBolt()));
        for (int p = 1; p <= MAX_ENRON_PARALLELISM; p++) {
            all.add(AppWorkloads.enron(p));
        }
        all.add(LatencyWorkloads.latency(1));
        all.add(WorkloadVariants.unfused(LatencyWorkloads.latency(1)));
        all.add(LatencyWorkloads.latency(500));
        all.add(LatencyWorkloads.spoutSleepsAfterEmit());
        all.add(WorkloadVariants.unfused(LatencyWorkloads.spoutSleepsAfterEmit()));
        all.add(LatencyWorkloads.boltSleepsAfterEmit());
        all.add(WorkloadVariants.unfused(LatencyWorkloads.boltSleepsAfterEmit()));
        all.add(ChainWorkloads.full());
        for (int i = 0; i < ChainWorkloads.RATES.size(); i++) {
            all.add(ChainWorkloads.held(ChainWorkloads.RATES.get(i), ChainWorkloads.PERCENTS.get(i)));
            all.add(WorkloadVariants.unfused(ChainWorkloads.held(ChainWorkloads.RATES.get(i), ChainWorkloads.PERCENTS.get(i))));
        }
        return List.copyOf(all);
    }

    /** The workloads {@code --quick} runs. */
    public static List<Workload> quick() {
        return select(QUICK);
    }

    /** The workload called {@code name}. */
    public static Optional<Workload> byName(String name) {
        return all().stream().filter(w -> w.name().equals(name)).findFirst();
    }

    /**
     * The workloads matching any of {@code names}, each a workload name or a family name (e.g. "wordcount" selects every
     * WordCount parallelism), in catalog order; throws {@link IllegalArgumentException} naming what matched nothing.
     */
    public static List<Workload> select(List<String> names) {
        Set<Workload> selected = new LinkedHashSet<>();
        List<Workload> all = all();
        for (String name : names) {
            List<Workload> matches = all.stream().filter(w -> w.name().equals(name) || w.family().equals(name)).toList();
            if (matches.isEmpty()) {
                throw new IllegalArgumentException("no workload called " + name + "; known: "
                    + String.join(", ", all.stream().map(Workload::name).toList()));
            }
            selected.addAll(matches);
        }
        return all.stream().filter(selected::contains).toList();
    }
}
