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
 * A kill of a topology with multi-lang bolts (storm-client's ShellBolt, a Python subprocess each) is a normal stop:
 * ending the subprocesses logs no error and no warning (storm-client's "Halting process: ShellBolt died ... Pipe to
 * subprocess seems to be broken", the runtime's "reported an error"), and records no error for the component. The
 * test waits until every ShellBolt reader thread has ended, so whatever they were going to log has been logged.
 */
@Timeout(180)
class ServerQuietStopTest {
    private static final String MAIN = "example.quiet.QuietTopology";
    private static final int WORDS = 40;
    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @Test
    void killingShellBoltsLogsNoErrorAndReportsNone(@TempDir Path dir) throws Exception {
        Map<String, String> sources = new HashMap<>(StormIdiomsTopologySource.sources());
        sources.put(MAIN, SOURCE);
        Path jar = TopologyJarBuilder.build(sources, StormIdiomsTopologySource.resources(),
            Files.createDirectories(dir.resolve("jar")));
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
                Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            LoaderProbe.reset();
            StormJarMain.run(jar, MAIN, List.of("quiet", Integer.toString(server.thriftPort())));
            await(() -> LoaderProbe.TUPLES.get() >= WORDS && readers() >= 4, "tuples through four ShellBolts");
            LogCapture capture = LogCapture.install();
            try {
                assertEquals(Main.OK, kill(server.thriftPort(), "quiet"));
                await(() -> readers() == 0, "the ShellBolts' reader threads to end");
                assertEquals(List.of(), capture.events(), "a kill is no crash");
            } finally {
                capture.remove();
            }
        }
    }

    private static int kill(int port, String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(new String[] {"kill", "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + port, "-w", "0", name}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals("Killed topology: " + name + "\n", out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8));
        return status;
    }

    private static int readers() {
        return ShellBoltThreads.readers().size();
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

    private static final String SOURCE = """
        package example.quiet;

        import example.idioms.IdiomsTopology.UpperShellBolt;
        import example.idioms.IdiomsTopology.WordsSpout;
        import java.util.List;
        import org.apache.storm.Config;
        import org.apache.storm.StormSubmitter;
        import org.apache.storm.topology.BasicOutputCollector;
        import org.apache.storm.topology.OutputFieldsDeclarer;
        import org.apache.storm.topology.TopologyBuilder;
        import org.apache.storm.topology.base.BaseBasicBolt;
        import org.apache.storm.tuple.Tuple;

        public class QuietTopology {
            public static void main(String[] args) throws Exception {
                TopologyBuilder builder = new TopologyBuilder();
                String[] words = new String[WORDS];
                for (int i = 0; i < words.length; i++) {
                    words[i] = "w" + i;
                }
                builder.setSpout("words", new WordsSpout(words));
                builder.setBolt("upper", new UpperShellBolt(), 4).shuffleGrouping("words");
                builder.setBolt("probe", new Probe()).shuffleGrouping("upper");
                Config conf = new Config();
                conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[1]));
                StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
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
        """.replace("WORDS", Integer.toString(WORDS));
}
