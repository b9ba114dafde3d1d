package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.StormJarMain;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.BoundTransportPlugin;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.storm.Config;
import org.apache.storm.blobstore.BlobStoreAclHandler;
import org.apache.storm.daemon.drpc.DRPC;
import org.apache.storm.daemon.drpc.DRPCThrift;
import org.apache.storm.generated.DRPCRequest;
import org.apache.storm.generated.DistributedRPC;
import org.apache.storm.metric.StormMetricsRegistry;
import org.apache.storm.security.auth.ThriftConnectionType;
import org.apache.storm.security.auth.ThriftServer;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code storm} commands {@code microburst} has besides the lifecycle verbs (blobstore, set_log_level, get-errors,
 * localconfvalue, remoteconfvalue, version, drpc-client), run as the command runs them ({@link Main#run}) against a
 * {@code microburst server} in this JVM and, for drpc-client, against Storm's own DRPC daemon code. What each prints
 * is checked line by line as a script would read it, and its effect on the server is checked on the server itself.
 */
@Timeout(180)
class StormCommandsEndToEndTest {
    private static final String TOPOLOGY = "probe";
    private static final String PROBE_LOGGER = "example.probe.Quiet";

    @TempDir
    static Path dir;
    private static MicroburstServer server;

    @BeforeAll
    static void startServerWithATopology() throws Exception {
        server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
            Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0));
        Path jar = TopologyJarBuilder.build(Map.of("example.probe.ProbeTopology", PROBE_SOURCE),
            Files.createDirectories(dir.resolve("build")));
        StormJarMain.run(jar, "example.probe.ProbeTopology", List.of(TOPOLOGY, Integer.toString(server.thriftPort())));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** One run of the command: exit status, stdout, stderr. */
    record Run(int status, String out, String err) {
    }

    private static Run microburst(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        int at = args[0].equals("blobstore") ? 2 : 1;
        all.addAll(at, List.of("-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c", "nimbus.thrift.port=" + server.thriftPort()));
        return run(all.toArray(String[]::new));
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Run ok(Run run) {
        assertEquals(Main.OK, run.status(), run.toString());
        return run;
    }

    @Test
    void blobstoreActionsDoWhatStormsDoAndPrintWhatStormsLog() throws Exception {
        Path content = Files.writeString(dir.resolve("v1.txt"), "first version");
        assertEquals("Creating words.txt with ACL [o::rwa]\nSuccessfully created words.txt\n",
            ok(microburst("blobstore", "create", "-f", content.toString(), "-a", "o::rwa", "words.txt")).out());
        assertEquals("[o::rwa]", server.nimbus().getBlobMeta("words.txt").get_settable().get_acl().stream()
            .map(BlobStoreAclHandler::accessControlToString).toList().toString(), "stored in the server's blob store");

        String listed = ok(microburst("blobstore", "list")).out();
        assertTrue(listed.matches("words\\.txt \\d+ \\[o::rwa\\]\n"), listed);
        assertEquals("first version", ok(microburst("blobstore", "cat", "words.txt")).out());

        Files.writeString(content, "second version");
        assertEquals("Successfully updated words.txt\n",
            ok(microburst("blobstore", "update", "--file", content.toString(), "words.txt")).out());
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream("from stdin".getBytes(StandardCharsets.UTF_8)));
            ok(microburst("blobstore", "update", "words.txt"));
        } finally {
            System.setIn(stdin);
        }
        assertEquals("from stdin", ok(microburst("blobstore", "cat", "words.txt")).out(), "without -f: stdin");
        ok(microburst("blobstore", "update", "--file", content.toString(), "words.txt"));
        Path copy = dir.resolve("copy.txt");
        ok(microburst("blobstore", "cat", "-f", copy.toString(), "words.txt"));
        assertEquals("second version", Files.readString(copy));

        assertEquals("Setting ACL for words.txt to [u:alice:rwa, o::r--]\n",
            ok(microburst("blobstore", "set-acl", "-s", "u:alice:rwa,o::r", "words.txt")).out());
        String relisted = ok(microburst("blobstore", "list", "words.txt")).out();
        // the store keeps the owner's rights, as Storm's Nimbus normalizes an ACL
        assertTrue(relisted.matches("words\\.txt \\d+ \\[u:alice:rwa, o::r--.*\\]\n"), relisted);
        assertEquals("Current replication factor 1\n",
            ok(microburst("blobstore", "replication", "--read", "words.txt")).out());

        Run missing = ok(microburst("blobstore", "list", "words.txt", "absent"));
        assertEquals("absent NOT FOUND\n", missing.err(), "a named key that is missing is reported, as by Storm");
        Run cat = microburst("blobstore", "cat", "absent");
        assertEquals(Main.FAILED, cat.status());
        assertEquals("microburst: blobstore cat: no blob with key 'absent'\n", cat.err());
        Run again = microburst("blobstore", "create", "-f", content.toString(), "words.txt");
        assertEquals(Main.FAILED, again.status());
        assertTrue(again.err().contains("a blob with key 'words.txt' already exists"), again.err());
        Run badAcl = microburst("blobstore", "create", "-a", "x:y", "other");
        assertEquals(Main.USAGE, badAcl.status());
        assertTrue(badAcl.err().startsWith("microburst: blobstore: bad access control 'x:y'"), badAcl.err());

        assertEquals("deleted words.txt\n", ok(microburst("blobstore", "delete", "words.txt")).out());
        assertEquals("", ok(microburst("blobstore", "list")).out());
    }

    @Test
    void setLogLevelChangesTheLoggerOnTheServerAndRemoveTakesItBack() throws Exception {
        Level before = LogManager.getLogger(PROBE_LOGGER).getLevel();
        String sent = ok(microburst("set_log_level", "-l", PROBE_LOGGER + "=debug:600", TOPOLOGY)).out();
        assertTrue(sent.startsWith("Log config LogConfig(named_logger_level:{" + PROBE_LOGGER
            + "=LogLevel(action:UPDATE, target_log_level:DEBUG, reset_log_level_timeout_secs:600"), sent);
        assertTrue(sent.endsWith(" is sent for topology " + TOPOLOGY + "\n"), sent);
        assertEquals(Level.DEBUG, LogManager.getLogger(PROBE_LOGGER).getLevel());
        String id = Utils.getTopologyId(TOPOLOGY, server.nimbus());
        assertEquals("DEBUG", server.nimbus().getLogConfig(id).get_named_logger_level().get(PROBE_LOGGER)
            .get_target_log_level());

        ok(microburst("set_log_level", "-r", PROBE_LOGGER, TOPOLOGY));
        assertEquals(before, LogManager.getLogger(PROBE_LOGGER).getLevel());

        Run absent = microburst("set_log_level", "-l", "ROOT=DEBUG", "absent");
        assertEquals(Main.FAILED, absent.status());
        assertEquals("microburst: set_log_level: no topology named 'absent' is running\n", absent.err());
        Run badLevel = microburst("set_log_level", "-l", PROBE_LOGGER + "=LOUD", TOPOLOGY);
        assertEquals(Main.USAGE, badLevel.status());
        assertTrue(badLevel.err().startsWith("microburst: --log-setting " + PROBE_LOGGER + ": unknown level 'LOUD'"),
            badLevel.err());
    }

    @Test
    void getErrorsPrintsEachComponentsLatestErrorAsStormsJson() throws Exception {
        String json = await(() -> ok(microburst("get-errors", TOPOLOGY)).out(), text -> text.contains("bad word"));
        @SuppressWarnings("unchecked")
        Map<String, Object> parsed = (Map<String, Object>) JSONValue.parse(json);
        assertEquals(TOPOLOGY, parsed.get("Topology Name"));
        @SuppressWarnings("unchecked")
        Map<String, String> errors = (Map<String, String>) parsed.get("Comp-Errors");
        assertEquals(List.of("fails"), List.copyOf(errors.keySet()), json);
        assertTrue(errors.get("fails").contains("IllegalStateException: bad word 2"), "the latest of three: " + json);

        assertEquals("{\"Failure\":\"No topologies running with name absent\"}\n",
            ok(microburst("get-errors", "absent")).out());
    }

    @Test
    void confValuesComeFromThisMachineOrFromTheServer() {
        assertEquals("drpc.servers: a.example b.example\n",
            ok(run("localconfvalue", "-c", "drpc.servers=[\"a.example\",\"b.example\"]", "drpc.servers")).out());
        assertEquals("topology.workers: 1\n", ok(run("localconfvalue", "topology.workers")).out(), "Storm's default");
        assertEquals("no.such.key: null\n", ok(run("localconfvalue", "no.such.key")).out());
        assertEquals(ServerConfig.DIR + ": " + dir.resolve("data") + "\n",
            ok(microburst("remoteconfvalue", ServerConfig.DIR)).out());
    }

    @Test
    void versionPrintsStormsLinesFirst() {
        String text = ok(run("version")).out();
        assertTrue(text.startsWith("Storm 2.8.3\nBranch "), text);
        assertTrue(text.contains("\nmicroburst "), text);
    }

    @Test
    void drpcClientCallsStormsDrpcServerAndPrintsAsStormsCommand() throws Exception {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.put(Config.DRPC_PORT, 0);
        conf.put(Config.DRPC_THRIFT_TRANSPORT_PLUGIN, BoundTransportPlugin.class.getName());
        try (DRPC drpc = new DRPC(new StormMetricsRegistry(), conf)) {
            ThriftServer thrift = new ThriftServer(conf, new DistributedRPC.Processor<>(new DRPCThrift(drpc)),
                ThriftConnectionType.DRPC);
            Thread serving = new Thread(thrift::serve, "test-drpc-thrift");
            serving.start();
            Thread answering = new Thread(() -> answerUpperCase(drpc), "test-drpc-answers");
            answering.setDaemon(true);
            answering.start();
            try {
                while (!thrift.isServing()) {
                    Thread.sleep(10);
                }
                String[] target = {"-c", "drpc.servers=[\"127.0.0.1\"]", "-c", "drpc.port=" + thrift.getPort()};
                assertEquals("upper \"hello\" => \"HELLO\"\nupper \"big world\" => \"BIG WORLD\"\n",
                    ok(run(concat(new String[] {"drpc-client"}, target, new String[] {"upper", "hello", "upper",
                        "big world"}))).out());
                assertEquals("upper \"a\" => \"A\"\nupper \"b\" => \"B\"\n",
                    ok(run(concat(new String[] {"drpc-client", "-f", "upper"}, target, new String[] {"a", "b"}))).out());
            } finally {
                answering.interrupt();
                thrift.stop();
                serving.join();
            }
        }
        Run odd = run("drpc-client", "upper");
        assertEquals(Main.USAGE, odd.status());
        assertTrue(odd.err().startsWith("microburst: drpc-client: without -f the arguments are FUNCTION ARG pairs"),
            odd.err());
        Run noServers = run("drpc-client", "upper", "x");
        assertEquals(Main.FAILED, noServers.status());
        assertTrue(noServers.err().startsWith("microburst: drpc-client: drpc.servers is not set"), noServers.err());
    }

    /** What a DRPC topology does, in short: fetch each request for "upper" and return its argument upper-cased. */
    private static void answerUpperCase(DRPC drpc) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                DRPCRequest request = drpc.fetchRequest("upper");
                if (request.get_request_id().isEmpty()) {
                    Thread.sleep(5);
                } else {
                    drpc.returnResult(request.get_request_id(), request.get_func_args().toUpperCase());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String[] concat(String[]... parts) {
        List<String> all = new ArrayList<>();
        for (String[] part : parts) {
            all.addAll(List.of(part));
        }
        return all.toArray(String[]::new);
    }

    private interface Text {
        String get() throws Exception;
    }

    private static String await(Text source, Predicate<String> done) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        String text = source.get();
        while (!done.test(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen in time: " + text);
            }
            Thread.sleep(50);
            text = source.get();
        }
        return text;
    }

    /** A spout emitting three words once; a bolt reporting an error for each (the last one reported is "bad word 2"). */
    private static final String PROBE_SOURCE = """
        package example.probe;

        import java.util.List;
        import java.util.Map;
        import org.apache.storm.Config;
import org.apache.storm.blobstore.BlobStoreAclHandler;
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

        public class ProbeTopology {
            public static void main(String[] args) throws Exception {
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("words", new ThreeWords(), 1);
                builder.setBolt("fails", new Fails(), 1).globalGrouping("words");
                Config conf = new Config();
                conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[1]));
                StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
            }

            public static class ThreeWords extends BaseRichSpout {
                private SpoutOutputCollector collector;
                private int sent;

                @Override
                public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                    collector = c;
                }

                @Override
                public void nextTuple() {
                    if (sent < 3) {
                        collector.emit(new Values("bad word " + sent++));
                    }
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    declarer.declare(new Fields("word"));
                }
            }

            public static class Fails extends BaseRichBolt {
                private OutputCollector collector;

                @Override
                public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                    collector = c;
                }

                @Override
                public void execute(Tuple input) {
                    collector.reportError(new IllegalStateException(input.getString(0)));
                    collector.ack(input);
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                }
            }
        }
        """;
}
