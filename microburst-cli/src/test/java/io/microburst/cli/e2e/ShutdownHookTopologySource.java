package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a topology whose bolt registers a JVM shutdown hook, as Hadoop's file system cache (storm-hdfs) and
 * storm-client's multi-lang components do. The hook runs when the process exits, after the run, and only then loads a
 * class of the jar it has not used before ({@code Verdict}); it writes {@code ran} to the file named by the first
 * argument. If the jar's classes are gone by then the hook dies with a {@code NoClassDefFoundError} and writes nothing.
 */
final class ShutdownHookTopologySource {
    static final String MAIN_CLASS = "example.hook.HookTopology";

    private static final String SOURCE = """
            package example.hook;

            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
            import org.apache.storm.task.OutputCollector;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.testing.TestWordSpout;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseRichBolt;
            import org.apache.storm.tuple.Tuple;

            public class HookTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new TestWordSpout(), 1);
                    builder.setBolt("hooked", new HookedBolt(args[0]), 1).shuffleGrouping("words");
                    StormSubmitter.submitTopology("hooked", new Config(), builder.createTopology());
                }

                public static class HookedBolt extends BaseRichBolt {
                    private final String file;

                    public HookedBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        Runtime.getRuntime().addShutdownHook(new Hook(file));
                    }

                    @Override
                    public void execute(Tuple input) {
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }

                static class Hook extends Thread {
                    private final String file;

                    Hook(String file) {
                        super("hooked-cleanup");
                        this.file = file;
                    }

                    @Override
                    public void run() {
                        Verdict.write(file, "ran");
                    }
                }
            }
            """;

    private static final String VERDICT = """
            package example.hook;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;

            final class Verdict {
                static void write(String file, String text) {
                    try {
                        Files.writeString(Path.of(file), text, StandardCharsets.UTF_8);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
            """;

    private ShutdownHookTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE, "example.hook.Verdict", VERDICT);
    }
}
