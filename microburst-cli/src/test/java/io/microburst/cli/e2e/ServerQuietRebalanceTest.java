package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.StormJarMain;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebalance of a topology with multi-lang bolts (storm-client's ShellBolt, a Python subprocess each) is a normal stop
 * of its executors: ending the old subprocesses logs no error and no warning, as {@link ServerQuietStopTest} checks
 * for a kill. The new executors' bolts are not covered by the old executors' stop: a subprocess of theirs that exits
 * with a non-zero code afterwards is a crash, and is logged as an error by storm-client's ShellBolt and by the runtime.
 * The test waits until the old ShellBolt reader threads have ended, so whatever they were going to log is logged.
 */
@Timeout(180)
class ServerQuietRebalanceTest {
    private static final String MAIN = "example.rebalance.RebalanceTopology";
    private static final String CRASH = "crash";
    private static final int WORDS = 40;
    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @Test
    void rebalancingShellBoltsLogsNoErrorWhileACrashAfterwardsStillDoes(@TempDir Path dir) throws Exception {
        Map<String, String> sources = new HashMap<>(StormIdiomsTopologySource.sources());
        sources.put(MAIN, SOURCE);
        Map<String, byte[]> resources = new HashMap<>(StormIdiomsTopologySource.resources());
        resources.put("resources/fragile.py", FRAGILE_PY.getBytes(StandardCharsets.UTF_8));
        Path jar = TopologyJarBuilder.build(sources, resources, Files.createDirectories(dir.resolve("jar")));
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
                Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            LoaderProbe.reset();
            CrashSwitch.set(false);
            StormJarMain.run(jar, MAIN, List.of("shells", Integer.toString(server.thriftPort())));
            // four upper-casing subprocesses and the fragile one
            await(() -> LoaderProbe.TUPLES.get() >= WORDS && ShellBoltThreads.readers().size() >= 5,
                "tuples through five ShellBolts");
            List<Thread> before = ShellBoltThreads.readers();
            LogCapture capture = LogCapture.install();
            try {
                assertEquals(List.of("Topology shells is rebalancing"),
                    run(server.thriftPort(), "rebalance", "-w", "0", "-e", "upper=2", "shells"));
                // the new spout emits its words again, through the new subprocesses
                await(() -> LoaderProbe.TUPLES.get() >= 2 * WORDS, "tuples through the new ShellBolts");
                await(() -> before.stream().noneMatch(Thread::isAlive), "the old ShellBolts' reader threads to end");
                assertEquals(List.of(), capture.events(), "a rebalance is no crash");

                CrashSwitch.set(true);
                await(() -> crashLogged(capture.events()), "the fragile subprocess' exit to be logged as an error");
                assertEquals(List.of("Killed topology: shells"), run(server.thriftPort(), "kill", "-w", "0", "shells"));
            } finally {
                capture.remove();
                CrashSwitch.set(false);
            }
        }
    }

    /**
     * storm-client's ERROR naming the component, and the runtime's ERROR naming the failed task's. (The exit code in
     * storm-client's line is -1 when its reader sees the pipe closed before the process is reaped.)
     */
    private static boolean crashLogged(List<String> events) {
        boolean shellBolt = events.stream().anyMatch(e -> e.startsWith("ERROR org.apache.storm.task.ShellBolt - ")
            && e.contains("ShellBolt died") && e.contains("name:fragile"));
        boolean runtime = events.stream().anyMatch(e -> e.startsWith("ERROR io.microburst.runtime")
            && e.contains("'fragile'"));
        return shellBolt && runtime;
    }

    /** Runs a command line verb against the server; returns its output lines once it exited 0. */
    private static List<String> run(int port, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] line = new String[args.length + 4];
        line[0] = args[0];
        line[1] = "-c";
        line[2] = "nimbus.seeds=[\"127.0.0.1\"]";
        line[3] = "-c";
        System.arraycopy(args, 1, line, 5, args.length - 1);
        line[4] = "nimbus.thrift.port=" + port;
        int status = Main.run(line, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(Main.OK, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** A subprocess that exits with code 3 when it is given the word {@code crash}. */
    private static final String FRAGILE_PY = """
            import os
            import storm


            class Fragile(storm.BasicBolt):
                def process(self, tup):
                    if tup.values[0] == "CRASH":
                        os._exit(3)


            Fragile().run()
            """.replace("CRASH", CRASH);

    private static final String SOURCE = """
        package example.rebalance;

        import example.idioms.IdiomsTopology.UpperShellBolt;
        import io.microburst.cli.e2e.CrashSwitch;
        import java.util.List;
        import java.util.Map;
        import org.apache.storm.Config;
        import org.apache.storm.StormSubmitter;
        import org.apache.storm.spout.SpoutOutputCollector;
        import org.apache.storm.task.ShellBolt;
        import org.apache.storm.task.TopologyContext;
        import org.apache.storm.topology.BasicOutputCollector;
        import org.apache.storm.topology.IRichBolt;
        import org.apache.storm.topology.OutputFieldsDeclarer;
        import org.apache.storm.topology.TopologyBuilder;
        import org.apache.storm.topology.base.BaseBasicBolt;
        import org.apache.storm.topology.base.BaseRichSpout;
        import org.apache.storm.tuple.Fields;
        import org.apache.storm.tuple.Tuple;
        import org.apache.storm.tuple.Values;

        public class RebalanceTopology {
            public static void main(String[] args) throws Exception {
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("words", new SwitchedWords());
                builder.setBolt("upper", new UpperShellBolt(), 4).shuffleGrouping("words");
                builder.setBolt("probe", new Probe()).shuffleGrouping("upper");
                builder.setBolt("fragile", new Fragile()).allGrouping("words");
                Config conf = new Config();
                conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[1]));
                StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
            }

            /** Emits WORDS words once, then the crash word once the test asks for it. */
            public static class SwitchedWords extends BaseRichSpout {
                private SpoutOutputCollector collector;
                private int next;
                private boolean crashed;

                @Override
                public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                    collector = c;
                }

                @Override
                public void nextTuple() {
                    if (next < WORDS) {
                        collector.emit(new Values("w" + next), next);
                        next++;
                    } else if (!crashed && CrashSwitch.on()) {
                        crashed = true;
                        collector.emit(new Values("CRASH"), "CRASH");
                    }
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    declarer.declare(new Fields("word"));
                }
            }

            public static class Fragile extends ShellBolt implements IRichBolt {
                public Fragile() {
                    super("python3", "fragile.py");
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                }

                @Override
                public Map<String, Object> getComponentConfiguration() {
                    return null;
                }
            }

            public static class Probe extends BaseBasicBolt {
                @Override
                public void execute(Tuple input, BasicOutputCollector collector) {
                    io.microburst.cli.e2e.LoaderProbe.executed();
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                }
            }
        }
        """.replace("WORDS", Integer.toString(WORDS)).replace("CRASH", CRASH);
}
