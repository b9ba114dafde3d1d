package io.microburst.it.soak;

import io.microburst.state.RocksDbKeyValueStateProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.builtin.Count;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.testing.MemoryMapState;
import org.apache.storm.trident.testing.Split;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * The soak's twenty topologies, of five kinds, as a user would build them for a Storm cluster: plain Java acked
 * chains (two of them run at full speed in the throughput phases), multi-lang ShellBolts, Trident, stateful bolts on
 * the embedded RocksDB store, and KafkaSpouts counting every record into durable state (the checked records).
 * Used by the test's thread only.
 */
final class SoakTopologies {
    static final int JAVA = 6;
    static final int SHELL = 3;
    static final int TRIDENT = 3;
    static final int STATEFUL = 4;
    static final int KAFKA = 4;
    /** The Java topologies whose spouts run at full speed while the fast flag exists. */
    static final int FAST = 2;
    static final int KAFKA_PARTITIONS = 2;

    /** One topology to submit: its name, topology and configuration. */
    record Planned(String name, StormTopology topology, Map<String, Object> conf) {
    }

    private final Path stateRoot;
    private final Path fastFlag;
    private final String bootstrap;

    SoakTopologies(Path stateRoot, Path fastFlag, String bootstrap) {
        this.stateRoot = stateRoot;
        this.fastFlag = fastFlag;
        this.bootstrap = bootstrap;
    }

    static String kafkaName(int i) {
        return "kafka-" + i;
    }

    static String topic(int i) {
        return "soak-" + i;
    }

    static String group(int i) {
        return "soak-group-" + i;
    }

    static String counter(int i) {
        return "count" + i;
    }

    static String fastName(int i) {
        return "java-" + i;
    }

    /** Where topology {@code name} keeps its durable state. */
    Path stateDir(String name) {
        return stateRoot.resolve(name);
    }

    List<Planned> all() {
        List<Planned> out = new ArrayList<>();
        for (int i = 0; i < JAVA; i++) {
            out.add(new Planned("java-" + i, java(i < FAST ? fastFlag.toString() : null), base()));
        }
        for (int i = 0; i < SHELL; i++) {
            out.add(new Planned("shell-" + i, shell(), base()));
        }
        for (int i = 0; i < TRIDENT; i++) {
            out.add(new Planned("trident-" + i, trident("sentences-" + i), base()));
        }
        for (int i = 0; i < STATEFUL; i++) {
            String name = "stateful-" + i;
            out.add(new Planned(name, stateful(), stateful(stateDir(name), 500)));
        }
        for (int i = 0; i < KAFKA; i++) {
            out.add(new Planned(kafkaName(i), kafka(i), stateful(stateDir(kafkaName(i)), 200)));
        }
        return out;
    }

    /** A short-lived Java topology the operators submit and kill. */
    Planned throwaway(String name) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new SoakComponents.PacedSpout(50, null), 1);
        b.setBolt("relay", new SoakComponents.RelayBolt(1), 1).shuffleGrouping("spout");
        b.setBolt("sink", new SoakComponents.RelayBolt(0), 1).shuffleGrouping("relay");
        return new Planned(name, b.createTopology(), base());
    }

    private static Map<String, Object> base() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 500);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);
        return conf;
    }

    private static Map<String, Object> stateful(Path dir, int checkpointMillis) {
        Map<String, Object> conf = base();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, RocksDbKeyValueStateProvider.class.getName());
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \"" + dir + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, checkpointMillis);
        return conf;
    }

    private static StormTopology java(String flag) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new SoakComponents.PacedSpout(100, flag), 1);
        b.setBolt("split", new SoakComponents.RelayBolt(2), 2).setNumTasks(3).shuffleGrouping("spout");
        b.setBolt("by-key", new SoakComponents.RelayBolt(1), 2).fieldsGrouping("split", new Fields("key"));
        b.setBolt("sink", new SoakComponents.RelayBolt(0), 1).shuffleGrouping("by-key");
        return b.createTopology();
    }

    private static StormTopology shell() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new SoakComponents.PacedSpout(50, null), 1);
        b.setBolt("python", new SoakComponents.ShellRelay(), 1).shuffleGrouping("spout");
        b.setBolt("sink", new SoakComponents.RelayBolt(0), 1).shuffleGrouping("python");
        return b.createTopology();
    }

    /**
     * {@code txId} names the stream's state in the cluster's ZooKeeper: as on a Storm cluster, two topologies must not
     * share one (they would take each other's batch ids and fail every batch).
     */
    private static StormTopology trident(String txId) {
        FixedBatchSpout spout = new FixedBatchSpout(new Fields("sentence"), 3, new Values("the cow jumped over the moon"),
            new Values("four score and seven years ago"), new Values("how many apples can you eat"));
        spout.setCycle(true);
        TridentTopology t = new TridentTopology();
        t.newStream(txId, spout).each(new Fields("sentence"), new Split(), new Fields("word"))
            .groupBy(new Fields("word")).persistentAggregate(new MemoryMapState.Factory(), new Count(),
                new Fields("count"));
        return t.build();
    }

    private static StormTopology stateful() {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new SoakComponents.PacedSpout(100, null), 1);
        b.setBolt("count", new SoakComponents.CountingBolt("id"), 2).fieldsGrouping("spout", new Fields("key"));
        return b.createTopology();
    }

    private StormTopology kafka(int i) {
        KafkaSpoutConfig<String, String> config = KafkaSpoutConfig.builder(bootstrap, topic(i))
            .setProp("group.id", group(i))
            .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
            .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
            .setOffsetCommitPeriodMs(200)
            .build();
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("kafka", new KafkaSpout<>(config), 1);
        b.setBolt(counter(i), new SoakComponents.CountingBolt("value"), 2).fieldsGrouping("kafka", new Fields("value"));
        return b.createTopology();
    }
}
