package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.StormJarMain;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What storm-client loads by name for a topology run by {@code microburst server} (in its own JVM, as users run it): a
 * state provider that only the topology's jar holds ({@code topology.state.provider}), and the metrics v2 reporters
 * of {@code topology.metrics.reporters}, which report the topology's own and Storm's built-in metrics as they do
 * under {@code MicroburstCluster} (see MetricsReportersParityTest).
 */
class ServerJarServicesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+)");
    private static final String MAIN = "example.state.StateTopology";
    private static final int TUPLES = 30;

    @TempDir
    static Path dir;
    private static JavaProcess server;
    private static int port;
    private static Path jar;

    @BeforeAll
    static void startServer() throws Exception {
        jar = TopologyJarBuilder.build(sources(), Files.createDirectories(dir.resolve("build")));
        server = JavaProcess.start(Files.createDirectories(dir.resolve("server")), List.of(), List.of(),
            Main.class.getName(), List.of("server", "--port", "0", "--ui-port", "0", "--dir", dir.resolve("data").toString()));
        await(() -> LISTENING.matcher(stdout()).find() || !server.isAlive(), "the server to listen");
        Matcher m = LISTENING.matcher(stdout());
        assertTrue(m.find(), server.output());
        port = Integer.parseInt(m.group(1));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aStateProviderShippedInTheJarIsFoundByStormsStateFactory() throws Exception {
        Path out = dir.resolve("state.txt");
        submit("stateful", out, "state");

        await(() -> lines(out).contains("initState") , "the stateful bolt's initState");
        assertEquals("provided by example.state.MapStateProvider from topology-stateful", lines(out).get(0));
    }

    @Test
    void metricsReportersReportUserAndBuiltinMetrics() throws Exception {
        Path csv = Files.createDirectories(dir.resolve("csv"));
        submit("reported", dir.resolve("reported.txt"), "csv:" + csv);

        await(() -> lastCount(csv, "-server-counted.csv") == TUPLES
            && lastCount(csv, "-__execute-count-words:default.csv") == TUPLES
            && lastCount(csv, "-__emit-count-default.csv") == TUPLES, "the CSV reporter's counts");
    }

    private static void submit(String name, Path out, String mode) throws Exception {
        StormJarMain.run(jar, MAIN, List.of(name, out.toString(),
                Integer.toString(port), mode));
    }

    private static String stdout() {
        try {
            return server.stdout();
        } catch (IOException e) {
            return "";
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The count on the last line of the CSV file whose name ends with {@code suffix}, or -1. */
    private static long lastCount(Path csvDir, String suffix) {
        try (Stream<Path> files = Files.list(csvDir)) {
            Path file = files.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElse(null);
            if (file == null) {
                return -1;
            }
            List<String> lines = Files.readAllLines(file);
            String last = lines.get(lines.size() - 1);
            if (!last.contains(",") || lines.size() < 2) {
                return -1;
            }
            return Long.parseLong(last.substring(last.indexOf(',') + 1).trim());
        } catch (IOException | RuntimeException e) {
            return -1; // not yet written, or a line being written
        }
    }

    private static void await(BooleanSupplier done, String what) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen in time: " + what + "\n" + server.output());
            }
            Thread.sleep(50);
        }
    }

    static Map<String, String> sources() {
        String provider = """
            package example.state;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            import java.util.Map;
            import org.apache.storm.state.InMemoryKeyValueState;
            import org.apache.storm.state.State;
            import org.apache.storm.state.StateProvider;
            import org.apache.storm.task.TopologyContext;

            public class MapStateProvider implements StateProvider {
                @Override
                public State newState(String namespace, Map<String, Object> conf, TopologyContext context) {
                    StateTopology.append((String) conf.get("example.out"), "provided by " + getClass().getName()
                        + " from " + getClass().getClassLoader().getName());
                    return new InMemoryKeyValueState<>();
                }
            }
            """;
        String topology = """
            package example.state;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            import java.util.List;
            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
            import org.apache.storm.metrics2.reporters.CsvStormReporter;
            import org.apache.storm.metrics2.reporters.ScheduledStormReporter;
            import org.apache.storm.spout.SpoutOutputCollector;
            import org.apache.storm.state.KeyValueState;
            import org.apache.storm.task.OutputCollector;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseRichBolt;
            import org.apache.storm.topology.base.BaseRichSpout;
            import org.apache.storm.topology.base.BaseStatefulBolt;
            import org.apache.storm.tuple.Fields;
            import org.apache.storm.tuple.Tuple;
            import org.apache.storm.tuple.Values;

            public class StateTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new WordSpout(), 1);
                    Config conf = new Config();
                    if (args[3].equals("state")) {
                        builder.setBolt("count", new CountBolt(args[1]), 1).shuffleGrouping("words");
                        conf.put(Config.TOPOLOGY_STATE_PROVIDER, MapStateProvider.class.getName());
                    } else {
                        builder.setBolt("counted", new CountedBolt(), 1).shuffleGrouping("words");
                        conf.put(Config.TOPOLOGY_METRICS_REPORTERS, List.of(Map.of("class", CsvStormReporter.class.getName(),
                            CsvStormReporter.CSV_LOG_DIR, args[3].substring(4), ScheduledStormReporter.REPORT_PERIOD, 1,
                            ScheduledStormReporter.REPORT_PERIOD_UNITS, "SECONDS")));
                    }
                    conf.put("example.out", args[1]);
                    conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                    conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[2]));
                    StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
                }

                static void append(String file, String line) {
                    try {
                        Files.writeString(Path.of(file), line + "\\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                public static class WordSpout extends BaseRichSpout {
                    private SpoutOutputCollector collector;
                    private int sent;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (sent < TUPLES) {
                            collector.emit(new Values("w" + sent), sent);
                            sent++;
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
                    private final String file;
                    private KeyValueState<String, Long> state;
                    private OutputCollector collector;

                    public CountBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void initState(KeyValueState<String, Long> s) {
                        state = s;
                        append(file, "initState");
                    }

                    @Override
                    public void execute(Tuple input) {
                        state.put(input.getString(0), state.get(input.getString(0), 0L) + 1);
                        collector.ack(input);
                    }
                }

                public static class CountedBolt extends BaseRichBolt {
                    private com.codahale.metrics.Counter counted;
                    private OutputCollector collector;

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        collector = c;
                        counted = context.registerCounter("server-counted");
                    }

                    @Override
                    public void execute(Tuple input) {
                        counted.inc();
                        collector.ack(input);
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """.replace("TUPLES", Integer.toString(TUPLES));
        return Map.of("example.state.MapStateProvider", provider, MAIN, topology);
    }
}
