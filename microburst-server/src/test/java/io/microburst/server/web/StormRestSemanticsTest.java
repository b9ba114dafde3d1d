package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import io.microburst.server.web.RawHttp.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Storm's UI REST answers mean, beyond their shape: capacity computed as Storm computes it, the topology's
 * emitted summed over every component, log levels and debug options set and shown back, bad bodies refused with 400,
 * and a profiling action writing its file where the logviewer serves it, only with the token.
 */
@Timeout(120)
class StormRestSemanticsTest {
    @TempDir
    static Path dir;
    private static MicroburstServer server;
    private static String token;
    private static String id;

    @BeforeAll
    static void start() throws Exception {
        server = WebTestServer.start(dir);
        token = WebTestServer.token(server);
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new StormRestApiDocumentTest.Numbers(), 1);
        builder.setBolt("busy", new Busy(), 2).shuffleGrouping("numbers");
        Config conf = new Config();
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 50);
        server.cluster().submitTopology("meaning", conf, builder.createTopology());
        id = server.cluster().getTopologySummaryByName("meaning").get_id();
        // capacity divides by the executors' uptime in whole seconds: wait until it is a few
        WebTestServer.awaitTrue(() -> executed(page("/api/v1/topology/" + id + "/component/busy?window=600")) > 200
            && uptimes(page("/api/v1/topology/" + id + "/component/busy")).allMatch(secs -> secs >= 3));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void capacityIsExecutedTimesExecuteLatencyOverTheWindowAsStormComputesIt() throws Exception {
        Map<String, Object> page = page("/api/v1/topology/" + id + "/component/busy?window=600");
        double highest = 0;
        for (Map<String, Object> executor : (List<Map<String, Object>>) page.get("executorStats")) {
            long executed = ((Number) executor.get("executed")).longValue();
            double latencyMs = Double.parseDouble((String) executor.get("executeLatency"));
            int window = Math.min(((Number) executor.get("uptimeSeconds")).intValue(), 600);
            double capacity = Double.parseDouble((String) executor.get("capacity"));
            assertEquals(window == 0 ? 0 : executed * latencyMs / (1000.0 * window), capacity, 0.002,
                executor.toString());
            highest = Math.max(highest, capacity);
        }
        Map<String, Object> tenMinutes = ((List<Map<String, Object>>) page.get("boltStats")).get(0);
        assertEquals(highest, Double.parseDouble((String) tenMinutes.get("capacity")), 0.0005);
        // a bolt that busies itself a millisecond per tuple and always has input is busy most of the time
        assertTrue(highest > 0.2, "capacity " + highest);
    }

    @Test
    @SuppressWarnings("unchecked")
    void topologyEmittedIsEveryComponentsEmitted() throws Exception {
        Map<String, Object> page = page("/api/v1/topology/" + id + "?window=:all-time");
        Map<String, Object> allTime = ((List<Map<String, Object>>) page.get("topologyStats")).get(3);
        long components = Stream.concat(((List<Map<String, Object>>) page.get("spouts")).stream(),
                ((List<Map<String, Object>>) page.get("bolts")).stream())
            .mapToLong(c -> ((Number) c.get("emitted")).longValue()).sum();
        long bolt = ((List<Map<String, Object>>) page.get("bolts")).stream()
            .mapToLong(c -> ((Number) c.get("emitted")).longValue()).sum();
        assertEquals(":all-time", allTime.get("window"));
        assertEquals(components, ((Number) allTime.get("emitted")).longValue());
        assertTrue(bolt > 0, "the bolt emits too: " + page.get("bolts"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void logLevelsAreSetAndShownBackInStormsShape() throws Exception {
        Answer set = post("/api/v1/topology/" + id + "/logconfig",
            "{\"namedLoggerLevels\": {\"io.microburst.semantics\": {\"target_level\": \"DEBUG\", \"timeout\": 60}}}");
        assertEquals(200, set.status(), set.body());
        Map<String, Object> levels = (Map<String, Object>) page("/api/v1/topology/" + id + "/logconfig")
            .get("namedLoggerLevels");
        assertEquals("DEBUG", ((Map<String, Object>) levels.get("io.microburst.semantics")).get("target_level"));
        assertEquals(400, post("/api/v1/topology/" + id + "/logconfig", "garbage").status());
        Answer loud = post("/api/v1/topology/" + id + "/logconfig",
            "{\"namedLoggerLevels\": {\"x\": {\"target_level\": \"LOUD\"}}}");
        assertEquals(400, loud.status());
        assertTrue(loud.body().contains("\"errorMessage\":\"logconfig: unknown level 'LOUD'"), loud.body());
    }

    @Test
    void debugOptionsAreSetPerTopologyAndComponent() throws Exception {
        assertEquals(200, post("/api/v1/topology/" + id + "/debug/enable/25", null).status());
        assertEquals(200, post("/api/v1/topology/" + id + "/component/busy/debug/enable/50", null).status());
        Map<String, Object> topology = page("/api/v1/topology/" + id);
        assertEquals(true, topology.get("debug"));
        assertEquals(25.0, ((Number) topology.get("samplingPct")).doubleValue());
        assertEquals(50.0, ((Number) page("/api/v1/topology/" + id + "/component/busy").get("samplingPct")).doubleValue());
        assertEquals(25.0, ((Number) page("/api/v1/topology/" + id + "/component/numbers").get("samplingPct"))
            .doubleValue());
        assertEquals(400, post("/api/v1/topology/" + id + "/debug/enable/many", null).status());
        assertEquals(400, post("/api/v1/topology/" + id + "/debug/explode/5", null).status());
        assertEquals(404, post("/api/v1/topology/" + id + "/component/nope/debug/enable/5", null).status());
        assertEquals(200, post("/api/v1/topology/" + id + "/debug/disable/0", null).status());
        assertEquals(false, page("/api/v1/topology/" + id).get("debug"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void debugSamplesTheTopologysEmitsIntoTheEventLog() throws Exception {
        Object port = ((List<Map<String, Object>>) page("/api/v1/topology-workers/" + id).get("hostPortList")).get(0)
            .get("port");
        Path events = dir.resolve("logs/workers-artifacts").resolve(id).resolve(String.valueOf(port))
            .resolve("events.log");
        assertEquals(200, post("/api/v1/topology/" + id + "/debug/enable/100", null).status());
        WebTestServer.awaitTrue(() -> lines(events).stream().filter(l -> l.contains(",numbers,")).count() > 20
            && lines(events).stream().anyMatch(l -> l.contains(",busy,")));
        assertEquals(200, post("/api/v1/topology/" + id + "/debug/disable/0", null).status());
        List<String> sampled = lines(events);
        assertTrue(sampled.stream().allMatch(l -> l.matches("\\d+,(numbers|busy),\\d+,default,\\[\\d+]")),
            sampled.toString());
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aThreadDumpNeedsTheTokenAndIsWrittenWhereTheLogviewerServesIt() throws Exception {
        Map<String, Object> worker = ((List<Map<String, Object>>) page("/api/v1/topology-workers/" + id)
            .get("hostPortList")).get(0);
        String path = "/api/v1/topology/" + id + "/profiling/dumpjstack/" + worker.get("host") + ":" + worker.get("port");
        assertEquals(403, RawHttp.send(server.uiPort(), "GET", path, host(), Map.of(), null).status());
        Answer dumped = get(path);
        assertEquals(200, dumped.status(), dumped.body());
        String file = (String) ((Map<String, Object>) JSONValue.parse(dumped.body())).get("file");
        Path written = dir.resolve("logs/workers-artifacts").resolve(id).resolve(String.valueOf(worker.get("port")))
            .resolve(file);
        String text = Files.readString(written);
        assertTrue(text.contains("Threads of topology meaning") && text.contains("\tat "), text);
        Answer listed = RawHttp.send(server.logViewerPort(), "GET", "/api/v1/listLogs?topoId=" + id, "127.0.0.1:"
            + server.logViewerPort(), Map.of(), null);
        assertTrue(listed.body().contains(file), listed.body());
        assertEquals(404, get("/api/v1/topology/" + id + "/profiling/dumpjstack/elsewhere:1").status());
    }

    @SuppressWarnings("unchecked")
    private static java.util.stream.IntStream uptimes(Map<String, Object> component) {
        return ((List<Map<String, Object>>) component.get("executorStats")).stream()
            .mapToInt(e -> ((Number) e.get("uptimeSeconds")).intValue());
    }

    private static long executed(Map<String, Object> component) {
        @SuppressWarnings("unchecked")
        Map<String, Object> tenMinutes = ((List<Map<String, Object>>) component.get("boltStats")).get(0);
        return ((Number) tenMinutes.get("executed")).longValue();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> page(String path) {
        try {
            Answer answer = get(path);
            assertEquals(200, answer.status(), answer.body());
            return (Map<String, Object>) JSONValue.parse(answer.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String host() {
        return "127.0.0.1:" + server.uiPort();
    }

    private static Answer get(String path) throws Exception {
        return RawHttp.send(server.uiPort(), "GET", path, host(), Map.of(WebServer.TOKEN_HEADER, token), null);
    }

    private static Answer post(String path, String body) throws Exception {
        return RawHttp.send(server.uiPort(), "POST", path, host(),
            Map.of(WebServer.TOKEN_HEADER, token, "Content-Type", "application/json"), body);
    }

    /** Works a millisecond on each tuple (on the CPU, so that it is busy, not waiting), then passes it on and acks. */
    static final class Busy extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            long until = System.nanoTime() + 1_000_000;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            collector.emit(input, new Values(input.getLong(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }
}
