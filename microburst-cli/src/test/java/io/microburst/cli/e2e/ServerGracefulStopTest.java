package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst server} stopped as {@code systemctl stop} stops it (SIGTERM) while an acked topology runs with
 * hundreds of tuple trees in flight: the server drains (spouts deactivated, every tree in flight acked, none failed)
 * before it stops the topology, says so, and exits with 143; started again on the same folder, the topology runs
 * again, active. The spout writes what it emitted, and what was acked and failed, when it is closed; a server that
 * stopped without draining leaves trees unacked there.
 */
class ServerGracefulStopTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern LISTENING = Pattern.compile("Nimbus Thrift on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern CLOSED = Pattern.compile("closed emitted=(\\d+) acked=(\\d+) failed=(\\d+)");
    private static final String MAIN = "example.draining.DrainingTopology";

    @TempDir
    Path dir;
    private final List<JavaProcess> processes = new ArrayList<>();
    private final AtomicInteger runs = new AtomicInteger();

    @AfterEach
    void stopEverything() {
        processes.forEach(JavaProcess::close);
    }

    @Test
    void sigtermDrainsTheTuplesInFlightAndARestartBringsTheTopologyBack() throws Exception {
        Path jar = TopologyJarBuilder.build(Map.of(MAIN, SOURCE), Files.createDirectories(dir.resolve("build")));
        Path data = dir.resolve("data");
        Path record = dir.resolve("record.txt");

        JavaProcess server = startServer(data);
        int port = awaitPort(server);
        JavaProcess submit = start(Main.class.getName(), List.of("submit", "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + port, jar.toString(), MAIN, record.toString()));
        assertEquals(0, submit.waitFor(TIMEOUT), submit.output());
        // acks flow, and the spout is at its max pending: trees are in flight.
        await(() -> Files.exists(record) ? Files.readString(record) : "", text -> text.contains("busy"), server);

        server.terminate();
        assertEquals(143, server.waitFor(TIMEOUT), server.output());
        String out = server.stdout();
        assertTrue(out.contains("microburst server: stopped; every tuple in flight was processed"), server.output());
        Matcher closed = CLOSED.matcher(Files.readString(record));
        assertTrue(closed.find(), Files.readString(record) + "\n" + server.output());
        long emitted = Long.parseLong(closed.group(1));
        assertTrue(emitted > 0, closed.group());
        assertEquals(emitted, Long.parseLong(closed.group(2)), "every tree acked before the stop: " + closed.group());
        assertEquals(0, Long.parseLong(closed.group(3)), "none failed by the stop: " + closed.group());

        JavaProcess restarted = startServer(data);
        int newPort = awaitPort(restarted);
        await(() -> Files.readString(record), text -> text.indexOf("opened") != text.lastIndexOf("opened")
            && text.lastIndexOf("busy") > text.lastIndexOf("opened"), restarted);
        String listed = microburst(newPort, "list");
        assertTrue(listed.matches("(?s).*draining\\s+ACTIVE.*"), listed);
    }

    private JavaProcess startServer(Path data) throws Exception {
        return start(Main.class.getName(), List.of("server", "--port", "0", "--ui-port", "0", "-c", "logviewer.port=0",
            "--dir", data.toString()));
    }

    private static int awaitPort(JavaProcess server) throws Exception {
        String out = await(server::stdout, text -> LISTENING.matcher(text).find() || !server.isAlive(), server);
        Matcher matcher = LISTENING.matcher(out);
        assertTrue(matcher.find(), server.output());
        return Integer.parseInt(matcher.group(1));
    }

    private String microburst(int port, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args[0], "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + port));
        all.addAll(List.of(args).subList(1, args.length));
        JavaProcess process = start(Main.class.getName(), all);
        assertEquals(0, process.waitFor(TIMEOUT), String.join(" ", args) + "\n" + process.output());
        return process.stdout();
    }

    private JavaProcess start(String main, List<String> args) throws Exception {
        Path workDir = Files.createDirectories(dir.resolve("run-" + runs.incrementAndGet()));
        JavaProcess process = JavaProcess.start(workDir, List.of(), List.of(), main, args);
        processes.add(process);
        return process;
    }

    private interface Text {
        String get() throws Exception;
    }

    private static String await(Text source, Predicate<String> done, JavaProcess context) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String text = source.get();
        while (!done.test(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen in time: " + text + "\n" + context.output());
            }
            Thread.sleep(50);
            text = source.get();
        }
        return text;
    }

    /** A reliable spout at its max pending, a bolt that takes a millisecond a tuple: a second's trees in flight. */
    private static final String SOURCE = """
        package example.draining;

        import java.io.IOException;
        import java.io.UncheckedIOException;
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

        public class DrainingTopology {
            static final int MAX_PENDING = 500;

            public static void main(String[] args) throws Exception {
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("numbers", new NumbersSpout(args[0]), 1);
                builder.setBolt("slow", new SlowBolt(), 1).shuffleGrouping("numbers");
                Config conf = new Config();
                conf.setMaxSpoutPending(MAX_PENDING);
                StormSubmitter.submitTopology("draining", conf, builder.createTopology());
            }

            public static class NumbersSpout extends BaseRichSpout {
                private final String file;
                private SpoutOutputCollector collector;
                private long emitted;
                private long acked;
                private long failed;
                private boolean busy;

                public NumbersSpout(String file) {
                    this.file = file;
                }

                @Override
                public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                    collector = c;
                    append("opened");
                }

                @Override
                public void nextTuple() {
                    collector.emit(new Values(emitted), emitted);
                    emitted++;
                }

                @Override
                public void ack(Object id) {
                    acked++;
                    if (!busy && acked >= 100 && emitted - acked >= MAX_PENDING / 2) {
                        busy = true;
                        append("busy");
                    }
                }

                @Override
                public void fail(Object id) {
                    failed++;
                }

                @Override
                public void close() {
                    append("closed emitted=" + emitted + " acked=" + acked + " failed=" + failed);
                }

                private void append(String line) {
                    try {
                        Files.writeString(Path.of(file), line + "\\n", StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    declarer.declare(new Fields("n"));
                }
            }

            public static class SlowBolt extends BaseRichBolt {
                private OutputCollector collector;

                @Override
                public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                    collector = c;
                }

                @Override
                public void execute(Tuple input) {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    collector.ack(input);
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                }
            }
        }
        """;
}
