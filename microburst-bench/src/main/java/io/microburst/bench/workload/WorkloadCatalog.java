package io.microburst.bench.workload;

import io.microburst.MicroburstConfig;
import io.microburst.bench.topology.ConstSpout;
import io.microburst.bench.topology.CountBolt;
import io.microburst.bench.topology.IdBolt;
import io.microburst.bench.topology.LatencyBolt;
import io.microburst.bench.topology.NullBolt;
import io.microburst.bench.topology.RandomMessageSpout;
import io.microburst.bench.topology.SentenceSpout;
import io.microburst.bench.topology.SleepAfterEmitBolt;
import io.microburst.bench.topology.SleepAfterEmitSpout;
import io.microburst.bench.topology.SortBolt;
import io.microburst.bench.topology.SplitBolt;
import io.microburst.bench.topology.StampSpout;
import io.microburst.bench.topology.email.DeserializeBolt;
import io.microburst.bench.topology.email.EmailFileSpout;
import io.microburst.bench.topology.email.FilterBolt;
import io.microburst.bench.topology.email.GlobalMetricsBolt;
import io.microburst.bench.topology.email.MetricsBolt;
import io.microburst.bench.topology.email.ModifyBolt;
import io.microburst.bench.topology.ordinary.RandomDigitsSpout;
import io.microburst.bench.topology.ordinary.RandomSentenceSpout;
import io.microburst.bench.topology.ordinary.RollingSortBolt;
import io.microburst.bench.topology.ordinary.SplitSentenceBolt;
import io.microburst.bench.topology.ordinary.WordCountBolt;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/** Every workload of the suite, in the order they run and report, and the subset {@code --quick} runs. Stateless. */
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
    /** Tasks per component of the automatic-parallelism workloads (WordCount p=4 with fewer executors). */
    static final int AUTO_TASKS = 4;
    /** The least gain of a cut in the {@code -eager} variants ({@code microburst.placement.min.gain}). */
    static final double EAGER_MIN_GAIN = 1.1;
    /** Decision interval of {@code wordcount-ordinary-p4-auto}, seconds: three decisions fit in its warm-up. */
    static final int AUTO_INTERVAL_SECS = 2;
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
        all.add(spoutEmit());
        all.add(constNull(false, null));
        all.add(unfused(constNull(false, null)));
        all.add(constNull(true, null));
        all.add(constNull(true, 1000));
        all.add(constIdNull(false));
        all.add(unfused(constIdNull(false)));
        all.add(constIdNull(true));
        for (int p = 1; p <= MAX_WORDCOUNT_PARALLELISM; p++) {
            all.add(wordCount(p));
        }
        all.add(wordCountAcked());
        all.add(rollingSort());
        for (int p : ORDINARY_WORDCOUNT_PARALLELISMS) {
            all.add(ordinaryWordCount(p));
            all.add(staticPlacement(ordinaryWordCount(p)));
        }
        all.add(eagerPlacement(ordinaryWordCount(1)));
        for (int executors = 1; executors < AUTO_TASKS; executors *= 2) {
            all.add(ordinaryWordCountExecutors(executors, false));
        }
        all.add(ordinaryWordCountExecutors(1, true));
        all.add(ordinaryRollingSort());
        all.add(staticPlacement(ordinaryRollingSort()));
        for (int p = 1; p <= MAX_ENRON_PARALLELISM; p++) {
            all.add(enron(p));
        }
        all.add(latency(1));
        all.add(unfused(latency(1)));
        all.add(latency(500));
        all.add(spoutSleepsAfterEmit());
        all.add(unfused(spoutSleepsAfterEmit()));
        all.add(boltSleepsAfterEmit());
        all.add(unfused(boltSleepsAfterEmit()));
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

    static Workload spoutEmit() {
        return Workload.named("spout-emit")
            .description("ConstSpout alone: how fast the runtime can call nextTuple and take an emit")
            .unit("emits/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("spout", new ConstSpout(false, true), 1);
                return b.createTopology();
            })
            .ceiling(ConstCeiling::new, false)
            .build();
    }

    static Workload constNull(boolean acked, Integer maxPending) {
        String name = "const-null" + (acked ? "-ack" : "") + (maxPending != null ? "-mp" + maxPending : "");
        Workload.Builder w = Workload.named(name)
            .description("ConstSpout -> NullBolt over localOrShuffle, acking " + (acked ? "on (1 acker), max spout pending "
                + (maxPending == null ? "unset" : maxPending) : "off"))
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, acked ? 1 : 0)
            .latency(acked ? LatencyKind.COMPLETE : LatencyKind.NONE)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("spout", new ConstSpout(acked, false), 1);
                b.setBolt("null", new NullBolt(), 1).localOrShuffleGrouping("spout");
                return b.createTopology();
            });
        if (maxPending != null) {
            w.config(Config.TOPOLOGY_MAX_SPOUT_PENDING, maxPending);
        }
        if (!acked) {
            w.ceiling(ConstCeiling::new, true);
        }
        return w.build();
    }

    static Workload constIdNull(boolean acked) {
        Workload.Builder w = Workload.named("const-id-null" + (acked ? "-ack" : ""))
            .description("ConstSpout -> IdBolt -> NullBolt over localOrShuffle, acking " + (acked ? "on (1 acker)" : "off"))
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, acked ? 1 : 0)
            .latency(acked ? LatencyKind.COMPLETE : LatencyKind.NONE)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("spout", new ConstSpout(acked, false), 1);
                b.setBolt("id", new IdBolt(), 1).localOrShuffleGrouping("spout");
                b.setBolt("null", new NullBolt(), 1).localOrShuffleGrouping("id");
                return b.createTopology();
            });
        if (!acked) {
            w.ceiling(ConstCeiling::new, true);
        }
        return w.build();
    }

    /**
     * The same topology with Microburst's operator fusion turned off ({@code microburst.fusion=false}), so every bolt runs
     * on its own thread behind a queue, as in Storm. Storm ignores the key, so it does not run the variant again: the
     * ratios use its figures for the fused twin.
     */
    static Workload unfused(Workload fused) {
        return fused.toBuilder(fused.name() + "-unfused")
            .description(fused.description() + "; Microburst fusion off")
            .config(MicroburstConfig.FUSION, false)
            .stormTwin(fused.name())
            .build();
    }

    static Workload wordCount(int parallelism) {
        return Workload.named("wordcount-p" + parallelism)
            .family("wordcount", parallelism)
            .description("WordCount: sentence spout (text in memory) -> split (shuffle) -> count (fields), parallelism "
                + parallelism + " for every component, acking off")
            .unit("words/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> wordCountTopology(parallelism, false))
            .ceiling(parallelism == 1 ? WordCountCeiling::new : null, true)
            .build();
    }

    static Workload wordCountAcked() {
        return Workload.named("wordcount-ack")
            .description("WordCount at parallelism 1 with acking on (1 acker), max spout pending unset")
            .unit("words/s")
            .latency(LatencyKind.COMPLETE)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 1)
            .topology(() -> wordCountTopology(1, true))
            .build();
    }

    private static StormTopology wordCountTopology(int parallelism, boolean acked) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("sentences", new SentenceSpout(acked), parallelism);
        b.setBolt("split", new SplitBolt(), parallelism).shuffleGrouping("sentences");
        b.setBolt("count", new CountBolt(), parallelism).fieldsGrouping("split", new Fields("word"));
        return b.createTopology();
    }

    static Workload rollingSort() {
        return Workload.named("rollingsort")
            .description("RollingSort: 100-digit random messages -> a bolt keeping the last 100, sorting them every second")
            .unit("messages/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("messages", new RandomMessageSpout(), 1);
                b.setBolt("sort", new SortBolt(), 1).shuffleGrouping("messages");
                return b.createTopology();
            })
            .ceiling(RollingSortCeiling::new, true)
            .build();
    }

    /**
     * WordCount as ordinary Storm code: a spout picking sentences with Random, a BaseBasicBolt splitting with
     * String.split into a new Values per word, and a BaseBasicBolt counting in a HashMap with merge that emits
     * (word, count) to a stream nobody subscribes to. Microburst runs it with cost-based placement.
     */
    static Workload ordinaryWordCount(int parallelism) {
        return Workload.named("wordcount-ordinary-p" + parallelism)
            .family("wordcount-ordinary", parallelism)
            .description("WordCount as ordinary user code (Random sentence spout -> BaseBasicBolt split -> BaseBasicBolt "
                + "HashMap.merge count emitting (word, count) to no subscriber), parallelism " + parallelism
                + " for every component, acking off, microburst.placement=auto")
            .unit("words/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .config(PLACEMENT, "auto")
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("sentences", new RandomSentenceSpout(), parallelism);
                b.setBolt("split", new SplitSentenceBolt(), parallelism).shuffleGrouping("sentences");
                b.setBolt("count", new WordCountBolt(), parallelism).fieldsGrouping("split", new Fields("word"));
                return b.createTopology();
            })
            .build();
    }

    /**
     * The workload with cost-based placement cutting at a lower expected gain ({@link #EAGER_MIN_GAIN} instead of 1.3),
     * to measure whether the cuts the default declines would have paid. Microburst only.
     */
    static Workload eagerPlacement(Workload auto) {
        return auto.toBuilder(auto.name() + "-eager")
            .description(auto.description() + ", microburst.placement.min.gain=" + EAGER_MIN_GAIN)
            .config(MicroburstConfig.PLACEMENT_MIN_GAIN, EAGER_MIN_GAIN)
            .stormTwin(auto.name())
            .build();
    }

    /**
     * Ordinary WordCount with {@link #AUTO_TASKS} tasks per component on fewer executors: hand-picked executor counts
     * ({@code wordcount-ordinary-p4-e1}, {@code -e2}; {@code wordcount-ordinary-p4} itself has one executor a task), or
     * ({@code wordcount-ordinary-p4-auto}) one executor per component at start and {@code microburst.parallelism=auto}
     * deciding every {@link #AUTO_INTERVAL_SECS} s, its decisions made in a warm-up of at least 20 s (logged in the
     * run's log). Microburst only: Storm runs {@code wordcount-ordinary-p4}.
     */
    static Workload ordinaryWordCountExecutors(int executors, boolean auto) {
        String name = "wordcount-ordinary-p" + AUTO_TASKS + (auto ? "-auto" : "-e" + executors);
        Workload.Builder b = ordinaryWordCount(AUTO_TASKS).toBuilder(name)
            .description("WordCount as ordinary user code, " + AUTO_TASKS + " tasks per component on " + executors
                + " executor(s) each" + (auto ? " at start, microburst.parallelism=auto every " + AUTO_INTERVAL_SECS
                + " s, warm-up at least 20 s" : "") + ", acking off, microburst.placement=auto")
            .stormTwin(ordinaryWordCount(AUTO_TASKS).name())
            .topology(() -> {
                TopologyBuilder t = new TopologyBuilder();
                t.setSpout("sentences", new RandomSentenceSpout(), executors).setNumTasks(AUTO_TASKS);
                t.setBolt("split", new SplitSentenceBolt(), executors).setNumTasks(AUTO_TASKS)
                    .shuffleGrouping("sentences");
                t.setBolt("count", new WordCountBolt(), executors).setNumTasks(AUTO_TASKS)
                    .fieldsGrouping("split", new Fields("word"));
                return t.createTopology();
            });
        if (auto) {
            b.config(MicroburstConfig.PARALLELISM, "auto")
                .config(MicroburstConfig.PARALLELISM_INTERVAL_SECS, AUTO_INTERVAL_SECS)
                .minWarmupSeconds(20);
        }
        return b.build();
    }

    /** RollingSort as ordinary user code: a Random-built 100-digit message per call, a BaseBasicBolt window. */
    static Workload ordinaryRollingSort() {
        return Workload.named("rollingsort-ordinary")
            .description("RollingSort as ordinary user code (spout building 100 Random digits per message -> BaseBasicBolt "
                + "keeping the last 100 in a deque, sorting a copy every second), acking off, microburst.placement=auto")
            .unit("messages/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .config(PLACEMENT, "auto")
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("messages", new RandomDigitsSpout(), 1);
                b.setBolt("sort", new RollingSortBolt(), 1).shuffleGrouping("messages");
                return b.createTopology();
            })
            .build();
    }

    /**
     * The same workload with Microburst's placement fixed ({@code microburst.placement=static}, the layout from the
     * topology's shape alone). Storm ignores the key, so it does not run the variant again: the ratios use its figures for
     * the twin.
     */
    static Workload staticPlacement(Workload auto) {
        Workload.Builder b = auto.toBuilder(auto.name() + STATIC_SUFFIX)
            .description(auto.description().replace("microburst.placement=auto", "microburst.placement=static"))
            .config(PLACEMENT, "static")
            .stormTwin(auto.name());
        if (!auto.family().equals(auto.name())) {
            b.family(auto.family() + STATIC_SUFFIX, auto.parallelism());
        }
        return b.build();
    }

    static Workload enron(int parallelism) {
        return Workload.named("enron-p" + parallelism)
            .family("enron", parallelism)
            .description("Enron-shaped I/O pipeline: gzip file of serialized emails -> deserialize -> filter -> modify -> "
                + "per-task metrics -> global aggregate every 4 s; parallelism " + parallelism + ", acking off")
            .unit("emails/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> {
                String dataSet = BenchData.emails().toString();
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("read", new EmailFileSpout(dataSet), parallelism);
                b.setBolt("deserialize", new DeserializeBolt(), parallelism).shuffleGrouping("read");
                b.setBolt("filter", new FilterBolt(), parallelism).shuffleGrouping("deserialize");
                b.setBolt("modify", new ModifyBolt(), parallelism).shuffleGrouping("filter");
                b.setBolt("metrics", new MetricsBolt(), parallelism).shuffleGrouping("modify");
                b.setBolt("global", new GlobalMetricsBolt(), 1).globalGrouping("metrics");
                return b.createTopology();
            })
            .ceiling(parallelism == 1 ? () -> new EnronCeiling(BenchData.emails()) : null, true)
            .build();
    }

    static Workload latency(int tuplesPerMs) {
        return Workload.named("latency-" + tuplesPerMs + "-per-ms")
            .description("Low-load latency: " + tuplesPerMs + " tuple(s) every millisecond, stamped by the spout with "
                + "System.nanoTime(), recorded by the bolt; acking off")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("stamps", new StampSpout(tuplesPerMs), 1);
                b.setBolt("latency", new LatencyBolt(), 1).shuffleGrouping("stamps");
                return b.createTopology();
            })
            .ceiling(() -> new LatencyCeiling(tuplesPerMs), true)
            .build();
    }

    /** How long the slow-call workloads sleep in a call after their emit. */
    static final long SLOW_CALL_MILLIS = 10;

    static Workload spoutSleepsAfterEmit() {
        return Workload.named("spout-sleeps-after-emit")
            .description("storm-perf LowThroughputTopo's shape: each nextTuple emits a tuple stamped with System.nanoTime() "
                + "(message id, acking on) and then sleeps " + SLOW_CALL_MILLIS + " ms inside the call; the bolt records now "
                + "minus the stamp")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 1)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("sleepy", new SleepAfterEmitSpout(SLOW_CALL_MILLIS), 1);
                b.setBolt("latency", new LatencyBolt(), 1).localOrShuffleGrouping("sleepy");
                return b.createTopology();
            })
            .build();
    }

    static Workload boltSleepsAfterEmit() {
        return Workload.named("bolt-sleeps-after-emit")
            .description("A bolt's slow call after its emit: a spout emits a tuple every " + SLOW_CALL_MILLIS + " ms (sleeping "
                + "in nextTuple); the middle bolt emits a tuple stamped with System.nanoTime() and then sleeps "
                + SLOW_CALL_MILLIS / 2 + " ms inside execute; the last bolt records now minus the stamp; acking on")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 1)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("sleepy", new SleepAfterEmitSpout(SLOW_CALL_MILLIS), 1);
                b.setBolt("slow", new SleepAfterEmitBolt(SLOW_CALL_MILLIS / 2), 1).shuffleGrouping("sleepy");
                b.setBolt("latency", new LatencyBolt(), 1).shuffleGrouping("slow");
                return b.createTopology();
            })
            .build();
    }
}
