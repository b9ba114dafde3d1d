package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.JavaProcess;
import io.microburst.cli.testsupport.StormJarMain;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.storm.Config;
import org.apache.storm.generated.DRPCExceptionType;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.DRPCClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst server --drpc} serves DRPC as a Storm cluster's DRPC daemon does: topologies written for a cluster
 * (DRPCSpout with ReturnResults, LinearDRPCTopologyBuilder, Trident's newDRPCStream; no LocalDRPC) are submitted with
 * StormSubmitter and called by storm-client's {@code DRPCClient}, by {@code microburst drpc-client}, by Storm's own
 * {@code storm drpc-client} class in a JVM of its own, and over HTTP ({@code /drpc/FUNCTION/ARGS}). Failures are
 * Storm's: an unknown function times out with {@code SERVER_TIMEOUT} (HTTP 504), and so does a function whose topology
 * was killed; a bolt that throws fails its request and the server keeps answering.
 */
@Timeout(300)
class ServerDrpcEndToEndTest {
    /** Short, so that the requests meant to time out do so quickly; calls meant to succeed retry until served. */
    private static final int REQUEST_TIMEOUT_SECS = 6;
    private static final Duration SERVED_WITHIN = Duration.ofSeconds(150);

    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static Path jar;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void startServerAndSubmitTopologies() throws Exception {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, dir.resolve("data").toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.DRPC, true);
        conf.put(Config.DRPC_PORT, 0);
        conf.put(Config.DRPC_INVOCATIONS_PORT, 0);
        conf.put(ServerConfig.DRPC_HTTP_PORT, 0);
        conf.put(ServerConfig.DRPC_REQUEST_TIMEOUT_SECS, REQUEST_TIMEOUT_SECS);
        server = MicroburstServer.start(conf);
        jar = TopologyJarBuilder.build(Map.of(DrpcTopologySource.MAIN, DrpcTopologySource.SOURCE),
            Files.createDirectories(dir.resolve("build")));
        for (String which : List.of("manual", "linear", "trident")) {
            submit(which, which);
        }
        assertEquals("hello!", callUntilServed("exclaim", "hello"));
        assertEquals("olleh", callUntilServed("reverse", "hello"));
        assertEquals("[[\"a\"],[\"b\"]]", callUntilServed("words", "a b"));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static void submit(String which, String name, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(which, name, Integer.toString(server.thriftPort())));
        args.addAll(List.of(more));
        StormJarMain.run(jar, DrpcTopologySource.MAIN, args);
    }

    private static DRPCClient client() throws Exception {
        return new DRPCClient(Utils.readStormConfig(), "127.0.0.1", server.drpcPort());
    }

    /**
     * A call retried while it times out (the topology is still starting) or fails (a tuple reached a bolt task while it
     * was being restarted after throwing), until {@link #SERVED_WITHIN}.
     */
    private static String callUntilServed(String function, String args) throws Exception {
        long deadline = System.nanoTime() + SERVED_WITHIN.toNanos();
        try (DRPCClient drpc = client()) {
            while (true) {
                try {
                    return drpc.execute(function, args);
                } catch (DRPCExecutionException e) {
                    boolean retried = e.get_type() == DRPCExceptionType.SERVER_TIMEOUT
                        || e.get_type() == DRPCExceptionType.FAILED_REQUEST;
                    if (!retried || System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                }
            }
        }
    }

    private static HttpResponse<String> http(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI drpcUri(String path) {
        return URI.create("http://127.0.0.1:" + server.drpcHttpPort() + "/drpc/" + path);
    }

    private static String[] target() {
        return new String[] {"-c", "drpc.servers=[\"127.0.0.1\"]", "-c", "drpc.port=" + server.drpcPort()};
    }

    /** {@code microburst drpc-client ARGS} against the server: exit status, stdout, stderr. */
    private static String[] drpcClientVerb(String... args) {
        String[] all = new String[1 + 4 + args.length];
        all[0] = "drpc-client";
        System.arraycopy(target(), 0, all, 1, 4);
        System.arraycopy(args, 0, all, 5, args.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void everyKindOfDrpcTopologyAnswersEveryKindOfClient() throws Exception {
        try (DRPCClient drpc = client()) {
            assertEquals("storm!", drpc.execute("exclaim", "storm"));
            assertEquals("mrots", drpc.execute("reverse", "storm"));
            assertEquals("[[\"one\"],[\"two\"],[\"three\"]]", drpc.execute("words", "one two three"));
        }

        String expected = "exclaim \"x\" => \"x!\"\nreverse \"abc\" => \"cba\"\nwords \"p q\" => \"[[\"p\"],[\"q\"]]\"\n";
        String[] verb = drpcClientVerb("exclaim", "x", "reverse", "abc", "words", "p q");
        assertEquals("0", verb[0], verb[2]);
        assertEquals(expected, verb[1]);

        // Storm's own command class, as the storm script runs it (-c values URL-encoded in storm.options)
        String options = URLEncoder.encode("drpc.servers=[\"127.0.0.1\"]", StandardCharsets.UTF_8) + ","
            + URLEncoder.encode("drpc.port=" + server.drpcPort(), StandardCharsets.UTF_8);
        try (JavaProcess storm = JavaProcess.start(Files.createDirectories(dir.resolve("storm-drpc-client")),
            List.of("-Dstorm.options=" + options), List.of(), "org.apache.storm.command.BasicDrpcClient",
            List.of("exclaim", "x", "reverse", "abc", "words", "p q"))) {
            assertEquals(0, storm.waitFor(Duration.ofSeconds(120)), storm.output());
            assertEquals(expected, storm.stdout(), "the same lines as Storm's storm drpc-client prints");
        }

        HttpResponse<String> get = http(HttpRequest.newBuilder(drpcUri("exclaim/web")));
        assertEquals(200, get.statusCode(), get.body());
        assertEquals("web!", get.body());
        HttpResponse<String> empty = http(HttpRequest.newBuilder(drpcUri("exclaim")));
        assertEquals("!", empty.body(), "GET /drpc/FUNCTION calls with empty arguments");
        HttpResponse<String> post = http(HttpRequest.newBuilder(drpcUri("words"))
            .POST(HttpRequest.BodyPublishers.ofString("posted body")));
        assertEquals(200, post.statusCode(), post.body());
        assertEquals("[[\"posted\"],[\"body\"]]", post.body());
    }

    @Test
    void anUnknownFunctionTimesOutWithStormsErrorForEveryClient() throws Exception {
        CompletableFuture<DRPCExecutionException> thrift = CompletableFuture.supplyAsync(() -> {
            try (DRPCClient drpc = client()) {
                return assertThrows(DRPCExecutionException.class, () -> drpc.execute("nobody", "x"));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        CompletableFuture<String[]> verb = CompletableFuture.supplyAsync(() -> drpcClientVerb("nobody", "y"));
        HttpResponse<String> web = http(HttpRequest.newBuilder(drpcUri("nobody/z")));

        assertEquals(504, web.statusCode(), web.body());
        assertTrue(web.body().contains("\"error\":\"SERVER_TIMEOUT\""), web.body());
        DRPCExecutionException e = thrift.get(120, TimeUnit.SECONDS);
        assertEquals(DRPCExceptionType.SERVER_TIMEOUT, e.get_type(), e.toString());
        String[] run = verb.get(120, TimeUnit.SECONDS);
        assertEquals(Integer.toString(Main.FAILED), run[0], run[1]);
        assertTrue(run[2].startsWith("microburst: drpc-client: nobody \"y\" failed on 127.0.0.1:" + server.drpcPort()),
            run[2]);
        assertTrue(run[2].contains("(SERVER_TIMEOUT)"), run[2]);
    }

    @Test
    void aBoltThatThrowsFailsItsRequestAndTheServerKeepsAnswering() throws Exception {
        try (DRPCClient drpc = client()) {
            DRPCExecutionException e = assertThrows(DRPCExecutionException.class, () -> drpc.execute("exclaim", "boom"));
            assertTrue(e.get_type() == DRPCExceptionType.FAILED_REQUEST || e.get_type() == DRPCExceptionType.SERVER_TIMEOUT,
                e.toString());
        }
        // the bolt's only task is restarted: once it answers again, every later request reaches a running task
        assertEquals("after!", callUntilServed("exclaim", "after"));
        assertTrue(server.nimbus().getClusterInfo().get_topologies().stream()
            .anyMatch(t -> t.get_name().equals("manual")), "the topology is still there");
    }

    @Test
    void aFunctionWhoseTopologyWasKilledFailsCleanly() throws Exception {
        submit("manual", "doomed", "doomed");
        assertEquals("first!", callUntilServed("doomed", "first"));
        KillOptions now = new KillOptions();
        now.set_wait_secs(0);
        server.nimbus().killTopologyWithOpts("doomed", now);
        long deadline = System.nanoTime() + SERVED_WITHIN.toNanos();
        while (server.nimbus().getClusterInfo().get_topologies().stream().map(TopologySummary::get_name)
            .anyMatch("doomed"::equals)) {
            if (System.nanoTime() - deadline > 0) {
                fail("the killed topology is still listed");
            }
            Thread.sleep(50);
        }
        try (DRPCClient drpc = client()) {
            DRPCExecutionException e = assertThrows(DRPCExecutionException.class, () -> drpc.execute("doomed", "again"));
            assertEquals(DRPCExceptionType.SERVER_TIMEOUT, e.get_type(), e.toString());
            assertEquals("still!", drpc.execute("exclaim", "still"), "the other topologies still answer");
        }
    }
}
