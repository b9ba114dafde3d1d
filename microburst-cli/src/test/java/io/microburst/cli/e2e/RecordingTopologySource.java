package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a small user topology, compiled into a jar by the test as a user's build would. Its main submits with
 * {@code StormSubmitter}; its bolt appends what it saw to the file named by the first argument. A second argument
 * {@code fail} makes main throw before submitting; {@code throw} makes the spout cycle through its words and the bolt throw on every tuple. Main logs one
 * INFO line through SLF4J after submitting, as user code does.
 */
final class RecordingTopologySource {
    static final String MAIN_CLASS = "example.recording.RecordingTopology";
    static final String TOPOLOGY_NAME = "recording";

    private static final String SOURCE = """
            package example.recording;

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
            import org.apache.storm.task.OutputCollector;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseRichBolt;
            import org.apache.storm.topology.base.BaseRichSpout;
            import org.apache.storm.tuple.Fields;
            import org.apache.storm.tuple.Tuple;
            import org.apache.storm.tuple.Values;

            public class RecordingTopology {
                public static void main(String[] args) throws Exception {
                    if (args.length > 1 && args[1].equals("fail")) {
                        throw new IllegalStateException("main was asked to fail");
                    }
                    TopologyBuilder builder = new TopologyBuilder();
                    boolean throwing = args.length > 1 && args[1].equals("throw");
                    builder.setSpout("words", new WordsSpout(throwing), 1);
                    builder.setBolt("record", new RecordBolt(args[0], throwing), 1).shuffleGrouping("words");
                    Config conf = new Config();
                    conf.put("recording.overridden", "from-main");
                    conf.put("recording.kept", "from-main");
                    StormSubmitter.submitTopology("recording", conf, builder.createTopology());
                    // storm -c overrides are Storm's configuration for the main too, as storm.options
                    Files.writeString(Path.of(args[0]), "main recording.number="
                            + org.apache.storm.utils.Utils.readStormConfig().get("recording.number") + "\\n",
                            StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    org.slf4j.LoggerFactory.getLogger(RecordingTopology.class).info("user main submitted recording");
                }

                public static class WordsSpout extends BaseRichSpout {
                    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta"};
                    private final boolean forever;
                    private SpoutOutputCollector collector;
                    private int next;

                    public WordsSpout(boolean forever) {
                        this.forever = forever;
                    }

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (forever || next < WORDS.length) {
                            collector.emit(new Values(WORDS[next++ % WORDS.length]));
                        } else {
                            try {
                                Thread.sleep(5);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class RecordBolt extends BaseRichBolt {
                    private final String file;
                    private final boolean throwing;
                    private OutputCollector collector;

                    public RecordBolt(String file, boolean throwing) {
                        this.file = file;
                        this.throwing = throwing;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        collector = c;
                        append("conf recording.overridden=" + conf.get("recording.overridden"));
                        append("conf recording.kept=" + conf.get("recording.kept"));
                        append("conf recording.number=" + conf.get("recording.number"));
                    }

                    @Override
                    public void execute(Tuple input) {
                        if (throwing) {
                            throw new IllegalStateException("record bolt was asked to throw");
                        }
                        append("word " + input.getStringByField("word"));
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

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """;

    private RecordingTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }
}
