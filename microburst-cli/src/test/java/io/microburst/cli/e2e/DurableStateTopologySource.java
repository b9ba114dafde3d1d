package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a stateful topology that names Microburst's RocksDB state provider by configuration alone, as docs/STATE.md
 * shows: the jar holds only the topology, the provider comes from the class path {@code microburst} runs on. Arguments:
 * the record file, the state directory. The bolt records the class of the state it was given and each count it keeps.
 */
final class DurableStateTopologySource {
    static final String MAIN_CLASS = "example.durable.DurableStateTopology";
    static final String PROVIDER = "io.microburst.state.RocksDbKeyValueStateProvider";

    private static final String SOURCE = """
            package example.durable;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
            import org.apache.storm.spout.SpoutOutputCollector;
            import org.apache.storm.state.KeyValueState;
            import org.apache.storm.task.OutputCollector;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseRichSpout;
            import org.apache.storm.topology.base.BaseStatefulBolt;
            import org.apache.storm.tuple.Fields;
            import org.apache.storm.tuple.Tuple;
            import org.apache.storm.tuple.Values;

            public class DurableStateTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new WordsSpout(), 1);
                    builder.setBolt("count", new CountBolt(args[0]), 1).shuffleGrouping("words");
                    Config conf = new Config();
                    conf.put(Config.TOPOLOGY_STATE_PROVIDER, "%s");
                    conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG,
                            "{\\"directory\\": \\"" + args[1].replace("\\\\", "\\\\\\\\") + "\\"}");
                    conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
                    StormSubmitter.submitTopology("durable", conf, builder.createTopology());
                }

                public static class WordsSpout extends BaseRichSpout {
                    private SpoutOutputCollector collector;
                    private boolean emitted;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (!emitted) {
                            emitted = true;
                            collector.emit(new Values("alpha"), "alpha");
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
                    private final String file;
                    private KeyValueState<String, Long> counts;
                    private OutputCollector collector;

                    public CountBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void initState(KeyValueState<String, Long> state) {
                        counts = state;
                        append("state " + state.getClass().getName());
                    }

                    @Override
                    public void execute(Tuple input) {
                        String word = input.getStringByField("word");
                        long count = counts.get(word, 0L) + 1;
                        counts.put(word, count);
                        append("count " + word + " " + count);
                        collector.ack(input);
                    }

                    private void append(String line) {
                        try {
                            Files.writeString(Path.of(file), line + "\\n", StandardCharsets.UTF_8,
                                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                }
            }
            """.formatted(PROVIDER);

    private DurableStateTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }
}
