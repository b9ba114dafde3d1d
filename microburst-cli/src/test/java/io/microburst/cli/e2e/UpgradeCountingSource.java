package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a counting topology for upgrades, compiled into a jar by the tests as a user's build would. Arguments:
 * the record file, the RocksDB state directory, and the bolt's variant (else the one built in, {@link #sources(String)}). Its spout emits the word {@code a} 50 times,
 * reliably (replayed when failed), then idles; its stateful bolt {@code count} (Microburst's RocksDB provider,
 * checkpoints every 100 ms) counts each word in its {@code KeyValueState<String, Long>} and appends
 * {@code VARIANT a=COUNT} to the record file. Variant {@code text} has a bolt of the same id whose state is
 * {@code KeyValueState<String, String>}: an upgrade to it is refused. The topology is named {@code counting}.
 */
final class UpgradeCountingSource {
    static final String MAIN_CLASS = "example.upgrade.Counting";
    static final String NAME = "counting";
    static final int WORDS = 50;

    private static final String SOURCE = """
            package example.upgrade;

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

            public class Counting {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new WordsSpout(), 1);
                    String variant = args.length > 2 ? args[2] : "%s";
                    if (variant.equals("text")) {
                        builder.setBolt("count", new TextBolt(), 1).shuffleGrouping("words");
                    } else {
                        builder.setBolt("count", new CountBolt(args[0], variant), 1).shuffleGrouping("words");
                    }
                    Config conf = new Config();
                    conf.put(Config.TOPOLOGY_STATE_PROVIDER, "io.microburst.state.RocksDbKeyValueStateProvider");
                    conf.put(Config.TOPOLOGY_STATE_PROVIDER_CONFIG,
                            "{\\"directory\\": \\"" + args[1].replace("\\\\", "\\\\\\\\") + "\\"}");
                    conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
                    StormSubmitter.submitTopology("counting", conf, builder.createTopology());
                }

                public static class WordsSpout extends BaseRichSpout {
                    private SpoutOutputCollector collector;
                    private int emitted;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (emitted < %d) {
                            collector.emit(new Values("a"), emitted++);
                        } else {
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    }

                    @Override
                    public void fail(Object id) {
                        collector.emit(new Values("a"), id);
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
                    private final String file;
                    private final String variant;
                    private KeyValueState<String, Long> counts;
                    private OutputCollector collector;

                    public CountBolt(String file, String variant) {
                        this.file = file;
                        this.variant = variant;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void initState(KeyValueState<String, Long> state) {
                        counts = state;
                    }

                    @Override
                    public void execute(Tuple input) {
                        String word = input.getStringByField("word");
                        long count = counts.get(word, 0L) + 1;
                        counts.put(word, count);
                        try {
                            Files.writeString(Path.of(file), variant + " " + word + "=" + count + "\\n",
                                    StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        collector.ack(input);
                    }
                }

                public static class TextBolt extends BaseStatefulBolt<KeyValueState<String, String>> {
                    private OutputCollector collector;

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void initState(KeyValueState<String, String> state) {
                    }

                    @Override
                    public void execute(Tuple input) {
                        collector.ack(input);
                    }
                }
            }
            """;

    private UpgradeCountingSource() {
    }

    static Map<String, String> sources() {
        return sources("v1");
    }

    /** The sources with {@code variant} as the bolt's variant when the main is given none. */
    static Map<String, String> sources(String variant) {
        return Map.of(MAIN_CLASS, SOURCE.formatted(variant, WORDS));
    }
}
