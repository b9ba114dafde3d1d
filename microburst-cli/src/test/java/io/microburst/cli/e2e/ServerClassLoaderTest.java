package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.cli.testsupport.StormJarMain;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two topology jars that bundle different versions of the same class run side by side on one server, each seeing its
 * own: every topology has a class loader of its own, child first for the jar's classes.
 */
class ServerClassLoaderTest {
    private static final String MAIN = "example.greet.GreetTopology";

    @Test
    void twoJarsWithDifferentVersionsOfOneClassEachSeeTheirOwn(@TempDir Path dir) throws Exception {
        Path v1 = TopologyJarBuilder.build(sources("v1"), Files.createDirectories(dir.resolve("v1")));
        Path v2 = TopologyJarBuilder.build(sources("v2"), Files.createDirectories(dir.resolve("v2")));
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
                Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            submit(v1, "greet-one", dir.resolve("one.txt"), server.thriftPort());
            submit(v2, "greet-two", dir.resolve("two.txt"), server.thriftPort());

            assertEquals("greeting v1", awaitLine(dir.resolve("one.txt")));
            assertEquals("greeting v2", awaitLine(dir.resolve("two.txt")));
        }
    }

    /** Runs the jar's main as 'storm jar' would: storm.jar names the jar, StormSubmitter uploads it. */
    static void submit(Path jarFile, String name, Path out, int port) throws Exception {
        StormJarMain.run(jarFile, MAIN, List.of(name, out.toString(),
                Integer.toString(port)));
    }

    static String awaitLine(Path file) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(file) || Files.readAllLines(file).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("nothing written to " + file);
            }
            Thread.sleep(50);
        }
        return Files.readAllLines(file).get(0);
    }

    static Map<String, String> sources(String version) {
        String greeting = """
            package example.greet;

            public final class Greeting {
                public static String text() {
                    return "greeting VERSION";
                }
            }
            """.replace("VERSION", version);
        String topology = """
            package example.greet;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            import java.util.List;
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

            public class GreetTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("once", new OnceSpout(), 1);
                    builder.setBolt("greet", new GreetBolt(args[1]), 1).shuffleGrouping("once");
                    Config conf = new Config();
                    conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                    conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[2]));
                    StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
                }

                public static class OnceSpout extends BaseRichSpout {
                    private SpoutOutputCollector collector;
                    private boolean done;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (!done) {
                            done = true;
                            collector.emit(new Values("go"));
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class GreetBolt extends BaseRichBolt {
                    private final String file;

                    public GreetBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                    }

                    @Override
                    public void execute(Tuple input) {
                        try {
                            Files.writeString(Path.of(file), Greeting.text() + "\\n", StandardOpenOption.CREATE,
                                StandardOpenOption.APPEND);
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
        return Map.of("example.greet.Greeting", greeting, MAIN, topology);
    }
}
