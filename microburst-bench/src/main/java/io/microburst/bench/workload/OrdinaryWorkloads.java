package io.microburst.bench.workload;

import io.microburst.MicroburstConfig;
import io.microburst.bench.topology.ordinary.FingerprintBolt;
import io.microburst.bench.topology.ordinary.RandomDigitsSpout;
import io.microburst.bench.topology.ordinary.RandomSentenceSpout;
import io.microburst.bench.topology.ordinary.RollingSortBolt;
import io.microburst.bench.topology.ordinary.SplitSentenceBolt;
import io.microburst.bench.topology.ordinary.WordCountBolt;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The workloads written as ordinary Storm user code (Random, BaseBasicBolt, a new Values per emit), which Microburst
 * runs with cost-based placement: WordCount at several parallelisms and on fewer executors than tasks, and RollingSort.
 *
 * <p>Stateless; any thread.
 */
public final class OrdinaryWorkloads {
    /** Tasks per component of the automatic-parallelism workloads (WordCount p=4 with fewer executors). */
    static final int AUTO_TASKS = 4;
    /** Decision interval of {@code wordcount-ordinary-p4-auto}, seconds: three decisions fit in its warm-up. */
    static final int AUTO_INTERVAL_SECS = 2;

    /** The Flink job of the ordinary WordCount. */
    public static final String WORDCOUNT_FLINK_JOB = "wordcount-ordinary";

    private OrdinaryWorkloads() {
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
            .config(WorkloadCatalog.PLACEMENT, "auto")
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("sentences", new RandomSentenceSpout(), parallelism);
                b.setBolt("split", new SplitSentenceBolt(), parallelism).shuffleGrouping("sentences");
                b.setBolt("count", new WordCountBolt(), parallelism).fieldsGrouping("split", new Fields("word"));
                return b.createTopology();
            })
            .flinkJob(WORDCOUNT_FLINK_JOB)
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
            .config(WorkloadCatalog.PLACEMENT, "auto")
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("messages", new RandomDigitsSpout(), 1);
                b.setBolt("sort", new RollingSortBolt(), 1).shuffleGrouping("messages");
                return b.createTopology();
            })
            .build();
    }

    /**
     * A bolt clearly slower than its spout: RollingSort's spout (100 Random digits a message) into a BaseBasicBolt
     * fingerprinting each message with {@link FingerprintBolt#ROUNDS} rounds of SHA-256. The shape where cutting the
     * fused chain onto two threads should pay, so the placement policy is judged where it should act.
     */
    static Workload slowBolt() {
        return Workload.named("slow-bolt")
            .description("RollingSort's spout (100 Random digits a message) -> BaseBasicBolt fingerprinting each message "
                + "with " + FingerprintBolt.ROUNDS + " rounds of SHA-256, emitting hex to no subscriber; acking off, "
                + "microburst.placement=auto")
            .unit("messages/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .config(WorkloadCatalog.PLACEMENT, "auto")
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("messages", new RandomDigitsSpout(), 1);
                b.setBolt("fingerprint", new FingerprintBolt(), 1).shuffleGrouping("messages");
                return b.createTopology();
            })
            .build();
    }
}
