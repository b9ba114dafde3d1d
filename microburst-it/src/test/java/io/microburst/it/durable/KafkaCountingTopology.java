package io.microburst.it.durable;

import io.microburst.state.RocksDbKeyValueStateProvider;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
import org.apache.storm.kafka.spout.KafkaSpout;
import org.apache.storm.kafka.spout.KafkaSpoutConfig;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseStatefulBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/**
 * The topology of the crash test, as a user would write it for a Storm cluster: storm-kafka-client's KafkaSpout
 * (at-least-once) reads a numbered stream; a stateful bolt counts how often it saw each number, in a
 * {@code KeyValueState} checkpointed by Storm's checkpoint protocol into the RocksDB provider.
 *
 * <p>Arguments: bootstrap servers, topic, state directory. The bolt prints {@code RESTORED <namespace> <millis>} when
 * its state is handed over and {@code FIRST <millis>} on its first record after that, for the test's recovery times.
 */
public final class KafkaCountingTopology {
    public static final String NAME = "kafka-count";
    public static final String GROUP = "kafka-count-group";
    /** The namespace of each counting task's state, followed by "-" and the task id (Storm's convention). */
    public static final String COUNTER = "counter";
    public static final int CHECKPOINT_INTERVAL_MS = 100;

    private KafkaCountingTopology() {
    }

    public static void main(String[] args) throws Exception {
        String bootstrap = args[0];
        String topic = args[1];
        String stateDirectory = args[2];
        KafkaSpoutConfig<String, String> spoutConfig = KafkaSpoutConfig.builder(bootstrap, topic)
                .setProp("group.id", GROUP)
                .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
                .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
                .setOffsetCommitPeriodMs(200)
                .build();
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("kafka", new KafkaSpout<>(spoutConfig), 1);
        builder.setBolt(COUNTER, new CountingBolt(), 2).fieldsGrouping("kafka", new Fields("value"));

        Config conf = new Config();
        conf.put(Config.TOPOLOGY_STATE_PROVIDER, RocksDbKeyValueStateProvider.class.getName());
        conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG, "{\"directory\": \"" + stateDirectory + "\"}");
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, CHECKPOINT_INTERVAL_MS);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);
        StormSubmitter.submitTopology(NAME, conf, builder.createTopology());
    }

    /** Counts each record number; the state is Storm's KeyValueState, so whatever provider is configured holds it. */
    public static final class CountingBolt extends BaseStatefulBolt<KeyValueState<Long, Long>> {
        private static final long serialVersionUID = 1L;
        /** The namespaces whose state was handed to a bolt in this process, for tests that run in-process. */
        public static final Set<String> NAMESPACES = ConcurrentHashMap.newKeySet();
        private transient KeyValueState<Long, Long> counts;
        private transient OutputCollector collector;
        private transient String namespace;
        private transient boolean first;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.namespace = context.getThisComponentId() + "-" + context.getThisTaskId();
        }

        @Override
        public void initState(KeyValueState<Long, Long> state) {
            this.counts = state;
            this.first = true;
            NAMESPACES.add(namespace);
            System.out.println("RESTORED " + namespace + " " + System.currentTimeMillis());
        }

        @Override
        public void execute(Tuple input) {
            if (first) {
                first = false;
                System.out.println("FIRST " + System.currentTimeMillis());
            }
            long number = Long.parseLong(input.getStringByField("value"));
            counts.put(number, counts.get(number, 0L) + 1);
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
