package io.microburst.bench.workload;

import io.microburst.bench.topology.CountBolt;
import io.microburst.bench.topology.RandomMessageSpout;
import io.microburst.bench.topology.SentenceSpout;
import io.microburst.bench.topology.SortBolt;
import io.microburst.bench.topology.SplitBolt;
import io.microburst.bench.topology.email.DeserializeBolt;
import io.microburst.bench.topology.email.EmailFileSpout;
import io.microburst.bench.topology.email.FilterBolt;
import io.microburst.bench.topology.email.GlobalMetricsBolt;
import io.microburst.bench.topology.email.MetricsBolt;
import io.microburst.bench.topology.email.ModifyBolt;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The application workloads written for the suite, each with a hand-written ceiling: WordCount (the scaling curve and
 * an acked run), RollingSort and the Enron-shaped I/O pipeline.
 *
 * <p>Stateless; any thread.
 */
final class AppWorkloads {
    private AppWorkloads() {
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
}
