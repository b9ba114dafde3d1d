package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a topology whose bolt starts a thread of its own and never stops it, as user code often does (a cache
 * refresher, an executor that is never shut down). The thread keeps reading from the jar's class loader; it writes
 * {@code interrupted} to the file named by the first argument when it is interrupted, or {@code closed} when the
 * loader stopped answering while it still ran (what later surfaces as a {@code NoClassDefFoundError}). A shutdown hook
 * lets the process exit only once the thread has written its verdict.
 */
final class LeftoverThreadTopologySource {
    static final String MAIN_CLASS = "example.leftover.LeftoverTopology";

    private static final String SOURCE = """
            package example.leftover;

            import java.io.IOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;
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

            public class LeftoverTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new TestWordSpout(), 1);
                    builder.setBolt("ticking", new TickingBolt(args[0]), 1).shuffleGrouping("words");
                    StormSubmitter.submitTopology("leftover", new Config(), builder.createTopology());
                }

                public static class TickingBolt extends BaseRichBolt {
                    private final String file;

                    public TickingBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        ClassLoader loader = TickingBolt.class.getClassLoader();
                        Path verdict = Path.of(file);
                        Thread ticker = new Thread(() -> {
                            try {
                                while (loader.getResource("example/leftover/LeftoverTopology.class") != null) {
                                    Thread.sleep(2);
                                }
                                write(verdict, "closed");
                            } catch (InterruptedException e) {
                                write(verdict, "interrupted");
                            }
                        }, "leftover-ticker");
                        ticker.setDaemon(true);
                        Thread waitForVerdict = new Thread(() -> {
                            try {
                                ticker.join(60_000);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }, "leftover-verdict");
                        Runtime.getRuntime().addShutdownHook(waitForVerdict);
                        ticker.start();
                    }

                    private static void write(Path verdict, String text) {
                        try {
                            Files.writeString(verdict, text, StandardCharsets.UTF_8);
                        } catch (IOException e) {
                            throw new RuntimeException(e);
                        }
                    }

                    @Override
                    public void execute(Tuple input) {
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """;

    private LeftoverThreadTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }
}
