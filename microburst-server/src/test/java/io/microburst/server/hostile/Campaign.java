package io.microburst.server.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * One hostile-input campaign against a real server: a server on 127.0.0.1 with every port (Thrift, UI and REST API,
 * logviewer, DRPC over HTTP) and its data folder inside a watched parent folder, running a topology that keeps
 * counting. {@link #refused} runs one case, checks its answer is a clear refusal (4xx, or a Thrift error, naming what
 * was wrong, with no stack trace or Java class name), then that every port still serves and the topology still
 * counts; failures are collected so that one run lists every case. {@link #close} checks that nothing was written
 * outside the data folder. Test thread only.
 */
final class Campaign implements AutoCloseable {
    /** Limits the campaign's server runs with, small so that each case takes milliseconds. */
    static final long UPLOAD_MAX_BYTES = 4L << 20;
    static final long EXPANDED_MAX_BYTES = 32L << 20;
    static final int EXPIRATION_SECS = 2;
    static final int MAX_OPEN_UPLOADS = 8;
    static final long BODY_MAX_BYTES = 1L << 20;
    static final String TOPOLOGY = "target";

    /** A Java class or package path, as a stack trace or a toString() shows it. */
    private static final Pattern CLASS_NAME = Pattern.compile(
        "\\b(?:java|javax|jdk|sun|com\\.sun|org\\.eclipse|org\\.apache|io\\.microburst)\\.(?:[a-z0-9_]+\\.)*[A-Z]\\w*"
            + "|Exception\\b|\\tat |Caused by");
    /** Tuples the target topology's spout emitted, in this JVM (the topology runs in the test's process). */
    static final AtomicLong EMITTED = new AtomicLong();

    private final Path parent;
    private final Set<String> parentBefore;
    final MicroburstServer server;
    final String token;
    private final NimbusClient client;
    private final List<String> table = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private long started;

    /** What a case does; returns the answer it got (HTTP) or throws what the server answered (Thrift). */
    interface Attack {
        Wire.Answer run() throws Exception;
    }

    Campaign(Path parent) throws Exception {
        this.parent = parent;
        this.parentBefore = listOutsideData(parent);
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, parent.resolve("data").toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.LOGVIEWER_PORT, 0);
        conf.put(ServerConfig.DRPC, true);
        conf.put(Config.DRPC_PORT, 0);
        conf.put(Config.DRPC_INVOCATIONS_PORT, 0);
        conf.put(ServerConfig.DRPC_HTTP_PORT, 0);
        conf.put(ServerConfig.DRPC_REQUEST_TIMEOUT_SECS, 1);
        conf.put(ServerConfig.UPLOAD_MAX_BYTES, UPLOAD_MAX_BYTES);
        conf.put(ServerConfig.UPLOAD_MAX_EXPANDED_BYTES, EXPANDED_MAX_BYTES);
        conf.put(ServerConfig.FILE_COPY_EXPIRATION_SECS, EXPIRATION_SECS);
        conf.put(ServerConfig.UPLOAD_MAX_OPEN, MAX_OPEN_UPLOADS);
        conf.put(ServerConfig.HTTP_MAX_BODY_BYTES, BODY_MAX_BYTES);
        this.server = MicroburstServer.start(conf);
        this.token = Files.readString(server.dataDir().resolve("ui-token")).trim();
        this.client = new NimbusClient(new HashMap<>(Utils.readStormConfig()), server.host(), server.thriftPort(), 30_000);
        submitTarget();
    }

    /** The answer of a Thrift call that did not refuse. */
    static Wire.Answer accepted(String what) {
        return new Wire.Answer(200, "", "accepted: " + what);
    }

    Nimbus.Iface nimbus() {
        return client.getClient();
    }

    String targetId() throws Exception {
        return server.cluster().getTopologySummaryByName(TOPOLOGY).get_id();
    }

    private void submitTarget() throws Exception {
        Nimbus.Iface nimbus = server.nimbus();
        String location = nimbus.beginFileUpload();
        nimbus.uploadChunk(location, ByteBuffer.wrap(Jars.good()));
        nimbus.finishFileUpload(location);
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ticks", new TickSpout(), 1);
        builder.setBolt("sink", new SinkBolt(), 1).shuffleGrouping("ticks");
        nimbus.submitTopology(TOPOLOGY, location, JSONValue.toJSONString(Map.of()), builder.createTopology());
        long start = EMITTED.get();
        await("the target topology counts", () -> EMITTED.get() > start);
        try (Stream<Path> workDirs = Files.list(server.dataDir().resolve("workers"))) {
            assertEquals(1, workDirs.count(), "the topology's working directory is in the data folder");
        }
    }

    /**
     * Runs one case: its answer must be a 4xx whose body names {@code names} (or a Thrift error whose message does),
     * without a stack trace or a class name; then every port must still serve.
     */
    void refused(String port, String name, String names, Attack attack) {
        answered(port, name, 0, names, attack);
    }

    /**
     * As {@link #refused}, for a case whose right answer is {@code status} rather than a 4xx (0: any 4xx): HTTP's own
     * status for an unknown version, Storm's for a DRPC request that no topology answers in time.
     */
    void answered(String port, String name, int status, String names, Attack attack) {
        started = System.nanoTime();
        String outcome;
        String problem = null;
        try {
            Wire.Answer answer = attack.run();
            outcome = answer.summary();
            if (status == 0 ? answer.status() < 400 || answer.status() > 499 : answer.status() != status) {
                problem = status == 0 ? "not a 4xx" : "not " + status;
            } else {
                problem = clear(answer.body(), names);
            }
        } catch (Exception e) {
            String message = message(e);
            outcome = "thrift " + e.getClass().getSimpleName() + ": " + message;
            problem = clear(message, names);
        }
        record(port, name, outcome, problem);
    }

    /** What a client shows of a Thrift error: Storm's declared exceptions carry their text in {@code msg}. */
    private static String message(Exception e) {
        try {
            Object msg = e.getClass().getMethod("get_msg").invoke(e);
            if (msg instanceof String text) {
                return text;
            }
        } catch (ReflectiveOperationException notDeclared) {
            // an application or transport error: its message is the text
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** What a case does when the expected answer is a closed connection. */
    interface Drop {
        void run() throws Exception;
    }

    /**
     * Runs a case whose only possible answer is to drop the connection (a Thrift frame over the limit is never read,
     * so it cannot be answered): the client must see its connection closed, and everyone else must still be served.
     */
    void dropped(String port, String name, Drop attack) {
        started = System.nanoTime();
        String outcome;
        String problem = null;
        try {
            attack.run();
            outcome = "served";
            problem = "not refused";
        } catch (org.apache.storm.thrift.transport.TTransportException | IOException e) {
            outcome = "connection closed (" + e.getClass().getSimpleName() + " at the client)";
        } catch (Exception e) {
            outcome = "thrift " + e.getClass().getSimpleName() + ": " + e.getMessage();
            problem = clear(e.getMessage(), "");
        }
        record(port, name, outcome, problem);
    }

    /** Runs a case the server may serve (clamped, say) as long as it does not fail: a 2xx or a clear 4xx. */
    void servedOrRefused(String port, String name, String names, Attack attack) {
        started = System.nanoTime();
        String outcome;
        String problem = null;
        try {
            Wire.Answer answer = attack.run();
            outcome = answer.summary();
            if (answer.status() >= 400 && answer.status() <= 499) {
                problem = clear(answer.body(), names);
            } else if (answer.status() < 200 || answer.status() > 299) {
                problem = "neither served nor refused";
            }
        } catch (Exception e) {
            outcome = "failed: " + e;
            problem = "the case itself failed";
        }
        record(port, name, outcome, problem);
    }

    private void record(String port, String name, String outcome, String problem) {
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        String health = health();
        if (health != null) {
            problem = problem == null ? health : problem + "; " + health;
        }
        table.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %d |", port, name, outcome.replace("|", "\\|"),
            problem == null ? "ok" : "FAILS: " + problem, millis));
        if (problem != null) {
            failures.add(port + " / " + name + ": " + problem + " (answer: " + outcome + ")");
        }
    }

    /** Null when the text names {@code names} and shows no Java internals, else what is wrong with it. */
    private static String clear(String text, String names) {
        if (text == null || text.isBlank()) {
            return "an empty answer";
        }
        text = text.replace("\\/", "/"); // JSON may escape slashes
        if (CLASS_NAME.matcher(text).find()) {
            return "shows a Java class name or stack trace";
        }
        if (!text.toLowerCase(Locale.ROOT).contains(names.toLowerCase(Locale.ROOT))) {
            return "does not name '" + names + "'";
        }
        return null;
    }

    /** Null when every port serves and the topology still counts, else what stopped. */
    private String health() {
        try {
            if (Wire.request(server.uiPort(), "GET", "/api/v1/cluster/summary", "", null).status() != 200) {
                return "the REST API stopped answering";
            }
            if (Wire.request(server.logViewerPort(), "GET", "/api/v1/listLogs", "", null).status() != 200) {
                return "the logviewer stopped answering";
            }
            if (Wire.request(server.drpcHttpPort(), "GET", "/", "", null).status() != 404) {
                return "DRPC over HTTP stopped answering";
            }
            if (!"ACTIVE".equals(nimbus().getTopologySummaryByName(TOPOLOGY).get_status())) {
                return "the target topology is no longer active";
            }
            long before = EMITTED.get();
            await("the target topology counts", () -> EMITTED.get() > before);
            return null;
        } catch (Exception | AssertionError e) {
            return "the server stopped serving: " + e;
        }
    }

    /** Every case's answer, as a markdown table. */
    String table() {
        return "| port | case | answer | verdict | ms |\n| --- | --- | --- | --- | --- |\n" + String.join("\n", table);
    }

    List<String> failures() {
        return failures;
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": not within 30 s");
            }
            Thread.sleep(5);
        }
    }

    /** Stops the server; then checks nothing appeared outside its data folder and the data folder holds only its own. */
    @Override
    public void close() throws IOException {
        client.close();
        server.close();
        assertEquals(parentBefore, listOutsideData(parent), "files written outside the server's data folder");
        Set<String> top = new TreeSet<>();
        try (Stream<Path> files = Files.list(server.dataDir())) {
            files.forEach(f -> top.add(f.getFileName().toString()));
        }
        top.remove("blobs"); // created at the first blob
        assertEquals(new TreeSet<>(List.of("lock", "logs", "previous-versions", "topologies", "ui-token", "uploads", "workers")),
            top);
        try (Stream<Path> workDirs = Files.list(server.dataDir().resolve("workers"))) {
            assertEquals(List.of(), workDirs.toList(), "the topology's working directory is deleted when it stops");
        }
        try (Stream<Path> topologies = Files.list(server.dataDir().resolve("topologies"))) {
            assertEquals(List.of(TOPOLOGY), topologies.map(p -> p.getFileName().toString()).toList());
        }
        try (Stream<Path> logs = Files.walk(server.workerLogsDir())) {
            assertTrue(logs.filter(Files::isRegularFile).allMatch(f -> f.getFileName().toString().startsWith("worker.log")),
                "only worker logs in the logs folder");
        }
    }

    private static Set<String> listOutsideData(Path parent) throws IOException {
        Set<String> names = new TreeSet<>();
        Path data = parent.resolve("data");
        try (Stream<Path> files = Files.walk(parent)) {
            files.filter(f -> !f.startsWith(data)).forEach(f -> names.add(parent.relativize(f).toString()));
        }
        return names;
    }

    /** Emits a number about every 5 ms (nothing in between, so the executor waits as Storm's wait strategy says). */
    public static final class TickSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;
        private long next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            long now = System.nanoTime();
            if (now - next >= 0) {
                next = now + TimeUnit.MILLISECONDS.toNanos(5);
                collector.emit(new Values(EMITTED.incrementAndGet()));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Takes the numbers. */
    public static final class SinkBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
