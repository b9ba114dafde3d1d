package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.testsupport.StormJarMain;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server that has killed a topology lets go of the topology's class loader, and with it every class of its jar:
 * nothing the server starts lazily for the first topology (its timer thread) keeps that topology's loader, and the
 * shutdown hook that storm-client's ShellBolt registers at every start is released when the topology is gone.
 */
class ServerClassLoaderReleaseTest {
    private static final String MAIN = "example.release.ReleaseTopology";
    private static final int TUPLES = 50;
    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @Test
    void killedTopologiesLeaveNoClassLoaderBehindWithOrWithoutShellBolts(@TempDir Path dir) throws Exception {
        Map<String, String> sources = new HashMap<>(StormIdiomsTopologySource.sources());
        sources.put(MAIN, SOURCE);
        Path jar = TopologyJarBuilder.build(sources, StormIdiomsTopologySource.resources(),
            Files.createDirectories(dir.resolve("jar")));
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
                Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            // The plain topology first: it is the one for which the server starts what it shares between topologies.
            String[][] runs = {{"plain-1", "false"}, {"shell-1", "true"}, {"plain-2", "false"}, {"shell-2", "true"}};
            for (String[] run : runs) {
                WeakReference<ClassLoader> loader = runAndKill(jar, run[0], Boolean.parseBoolean(run[1]),
                    server.thriftPort());
                assertTrue(collected(loader), run[0] + ": the topology's class loader is still reachable after kill");
            }
        }
    }

    private static WeakReference<ClassLoader> runAndKill(Path jar, String name, boolean shell, int port)
            throws Exception {
        LoaderProbe.reset();
        submit(jar, name, shell, port);
        await(() -> LoaderProbe.TUPLES.get() >= TUPLES, name + ": " + TUPLES + " tuples through the topology");
        WeakReference<ClassLoader> loader = LoaderProbe.LOADER.get();
        assertNotNull(loader, name + ": the bolt was prepared");
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
        conf.put(Config.NIMBUS_THRIFT_PORT, port);
        try (NimbusClient client = NimbusClient.getConfiguredClient(conf)) {
            Nimbus.Iface nimbus = client.getClient();
            KillOptions options = new KillOptions();
            options.set_wait_secs(0);
            nimbus.killTopologyWithOpts(name, options);
            await(() -> {
                try {
                    return nimbus.getClusterInfo().get_topologies().isEmpty();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, name + ": gone from the cluster");
        }
        return loader;
    }

    /** Collects until the reference is cleared; the server closes unused loaders within a second of the kill. */
    private static boolean collected(WeakReference<ClassLoader> loader) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (loader.get() != null) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            System.gc();
            Thread.sleep(50);
        }
        return true;
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

    private static void submit(Path jarFile, String name, boolean shell, int port) throws Exception {
        StormJarMain.run(jarFile, MAIN, List.of(name, Boolean.toString(shell),
                Integer.toString(port)));
    }

    /** Uses the spout and the multi-lang bolt of {@link StormIdiomsTopologySource}, built into the same jar. */
    private static final String SOURCE = """
        package example.release;

        import example.idioms.IdiomsTopology.UpperShellBolt;
        import example.idioms.IdiomsTopology.WordsSpout;
        import java.util.List;
        import java.util.Map;
        import org.apache.storm.Config;
        import org.apache.storm.StormSubmitter;
        import org.apache.storm.task.TopologyContext;
        import org.apache.storm.topology.BasicOutputCollector;
        import org.apache.storm.topology.OutputFieldsDeclarer;
        import org.apache.storm.topology.TopologyBuilder;
        import org.apache.storm.topology.base.BaseBasicBolt;
        import org.apache.storm.tuple.Tuple;

        public class ReleaseTopology {
            public static void main(String[] args) throws Exception {
                String[] words = new String[TUPLES];
                for (int i = 0; i < words.length; i++) {
                    words[i] = "w" + i;
                }
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("words", new WordsSpout(words));
                String probed = "words";
                if (Boolean.parseBoolean(args[1])) {
                    builder.setBolt("upper", new UpperShellBolt()).shuffleGrouping("words");
                    probed = "upper";
                }
                builder.setBolt("probe", new Probe()).shuffleGrouping(probed);
                Config conf = new Config();
                conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[2]));
                StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
            }

            public static class Probe extends BaseBasicBolt {
                @Override
                public void prepare(Map<String, Object> conf, TopologyContext context) {
                    io.microburst.cli.e2e.LoaderProbe.prepared(getClass().getClassLoader());
                }

                @Override
                public void execute(Tuple input, BasicOutputCollector collector) {
                    io.microburst.cli.e2e.LoaderProbe.executed();
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                }
            }
        }
        """.replace("TUPLES", Integer.toString(TUPLES));
}
