package io.microburst.it.upgrade;

import java.util.Map;

/**
 * Source of the counting topology the Kafka upgrade measurement upgrades, compiled into one jar per version as a
 * user's build would. Arguments: bootstrap servers, topic, RocksDB state directory. storm-kafka-client's
 * {@code KafkaSpout} (at-least-once, its positions committed in Kafka) reads records whose key is a word and whose value
 * is the record's number; the stateful bolt {@code count} (4 tasks, fields grouping on the key) counts in its
 * {@code KeyValueState<String, Long>} each key ({@code k<key>}) and each record ({@code r<number>}). Version
 * {@code a} runs the bolt on 2 executors; version {@code b} on 4, and its bolt also keeps each key's highest record
 * number ({@code m<key>}). Both report to {@link UpgradeProbe}. The topology is named {@link #NAME}.
 */
final class KafkaUpgradeSource {
    static final String MAIN_CLASS = "example.kafkaupgrade.Counting";
    static final String NAME = "kafka-upgrade";
    static final String GROUP = "kafka-upgrade-group";
    static final String COUNTER = "count";
    static final int TASKS = 4;

    private static final String SOURCE = """
        package example.kafkaupgrade;

        import io.microburst.it.upgrade.UpgradeProbe;
        import java.util.Map;
        import org.apache.storm.Config;
        import org.apache.storm.StormSubmitter;
        import org.apache.storm.kafka.spout.FirstPollOffsetStrategy;
        import org.apache.storm.kafka.spout.KafkaSpout;
        import org.apache.storm.kafka.spout.KafkaSpoutConfig;
        import org.apache.storm.kafka.spout.KafkaSpoutMessageId;
        import org.apache.storm.spout.SpoutOutputCollector;
        import org.apache.storm.state.KeyValueState;
        import org.apache.storm.task.OutputCollector;
        import org.apache.storm.task.TopologyContext;
        import org.apache.storm.topology.OutputFieldsDeclarer;
        import org.apache.storm.topology.TopologyBuilder;
        import org.apache.storm.topology.base.BaseStatefulBolt;
        import org.apache.storm.tuple.Fields;
        import org.apache.storm.tuple.Tuple;

        public class Counting {
            static final boolean SECOND = "%s".equals("b");

            public static void main(String[] args) throws Exception {
                KafkaSpoutConfig<String, String> spoutConfig = KafkaSpoutConfig.builder(args[0], args[1])
                    .setProp("group.id", "%s")
                    .setProcessingGuarantee(KafkaSpoutConfig.ProcessingGuarantee.AT_LEAST_ONCE)
                    .setFirstPollOffsetStrategy(FirstPollOffsetStrategy.UNCOMMITTED_EARLIEST)
                    .setOffsetCommitPeriodMs(200)
                    .build();
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("kafka", new TimedSpout(spoutConfig), 1);
                builder.setBolt("%s", SECOND ? new TrackingBolt() : new CountBolt(), SECOND ? 4 : 2).setNumTasks(%d)
                    .fieldsGrouping("kafka", new Fields("key"));
                Config conf = new Config();
                conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
                conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG,
                    "{\\"directory\\": \\"" + args[2].replace("\\\\", "\\\\\\\\") + "\\"}");
                conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
                conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 30);
                conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 2000);
                StormSubmitter.submitTopology("%s", conf, builder.createTopology());
            }

            public static class TimedSpout extends KafkaSpout<String, String> {
                private transient String topologyId;

                public TimedSpout(KafkaSpoutConfig<String, String> config) {
                    super(config);
                }

                @Override
                public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
                    topologyId = context.getStormId();
                    UpgradeProbe.loaded(topologyId, getClass().getClassLoader());
                    super.open(conf, context, collector);
                }

                @Override
                public void activate() {
                    UpgradeProbe.mark(topologyId, UpgradeProbe.Mark.ACTIVATED);
                    super.activate();
                }

                @Override
                public void nextTuple() {
                    UpgradeProbe.mark(topologyId, UpgradeProbe.Mark.POLLED);
                    super.nextTuple();
                }

                @Override
                public void ack(Object messageId) {
                    super.ack(messageId);
                    KafkaSpoutMessageId id = (KafkaSpoutMessageId) messageId;
                    UpgradeProbe.acked(topologyId, id.partition(), id.offset());
                }
            }

            public static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
                protected KeyValueState<String, Long> state;
                private OutputCollector collector;
                private String topologyId;

                @Override
                public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                    collector = c;
                    topologyId = context.getStormId();
                    UpgradeProbe.loaded(context.getStormId(), getClass().getClassLoader());
                }

                @Override
                public void initState(KeyValueState<String, Long> s) {
                    state = s;
                }

                @Override
                public void execute(Tuple input) {
                    String key = input.getStringByField("key");
                    long record = Long.parseLong(input.getStringByField("value"));
                    more(key, record);
                    state.put("k" + key, state.get("k" + key, 0L) + 1);
                    state.put("r" + record, state.get("r" + record, 0L) + 1);
                    UpgradeProbe.delivered(record, SECOND);
                    UpgradeProbe.mark(topologyId, UpgradeProbe.Mark.EXECUTED);
                    collector.ack(input);
                }

                protected void more(String key, long record) {
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                }
            }

            public static class TrackingBolt extends CountBolt {
                @Override
                protected void more(String key, long record) {
                    state.put("m" + key, Math.max(record, state.get("m" + key, -1L)));
                }
            }
        }
        """;

    private KafkaUpgradeSource() {
    }

    /** The sources of version {@code version} ({@code a} or {@code b}). */
    static Map<String, String> sources(String version) {
        return Map.of(MAIN_CLASS, SOURCE.formatted(version, GROUP, COUNTER, TASKS, NAME));
    }
}
