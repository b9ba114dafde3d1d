package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.storm.Config;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each topology the server runs gets its own worker log, {@code ID/PORT/worker.log} with the host and port its
 * executors report, and the logviewer on {@code logviewer.port} serves it as Storm's does to tools such as Storm's
 * integration tests: what one topology's code logs is in its file and not in another's.
 */
class WorkerLogsTest {
    private static final Logger LOG = LoggerFactory.getLogger(WorkerLogsTest.class);
    private static final Pattern LINE_START = Pattern.compile("(?m)^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} .*"
        + "marker nextTuple of logs-a$");
    private static final Pattern LINE_START_ANY = Pattern.compile("^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} ");
    /** Lines the chatty spout logs: enough for more than ten files of 2 KiB. */
    private static final int CHATTY_LINES = 600;
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void eachTopologysLinesAreInItsOwnWorkerLogServedByTheLogViewer() throws Exception {
        Configurator.setLevel(WorkerLogsTest.class.getName(), Level.INFO);
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0, ServerConfig.LOGVIEWER_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(conf)) {
            String a = submit(server, "logs-a");
            String b = submit(server, "logs-b");
            String base = "http://127.0.0.1:" + server.logViewerPort() + "/api/v1/";
            String fileA = logFile(server, a);
            String fileB = logFile(server, b);

            String logA = awaitContaining(base + "download?file=" + encode(fileA), "marker nextTuple of logs-a");
            String logB = awaitContaining(base + "download?file=" + encode(fileB), "marker nextTuple of logs-b");
            assertTrue(logA.contains("marker open of logs-a"), "lines logged while the topology was submitted are kept");
            assertFalse(logA.contains("logs-b"), logA);
            assertFalse(logB.contains("logs-a"), logB);
            assertTrue(LINE_START.matcher(logA).find(), "a line starts with its time, as a worker's: " + logA);

            HttpResponse<String> slice = get(base + "log?file=" + encode(fileA) + "&start=0&length=10&format=text");
            assertEquals(200, slice.statusCode());
            assertEquals(logA.substring(0, 10), slice.body());
            HttpResponse<String> list = get(base + "listLogs?topoId=" + encode(a));
            assertEquals(200, list.statusCode());
            assertEquals(java.util.List.of(fileA), JSONValue.parse(list.body()));

            HttpResponse<String> outside = get(base + "download?file=" + encode("../../topologies/logs-a/conf.json"));
            assertEquals(404, outside.statusCode());
            assertTrue(outside.body().contains("../../topologies/logs-a/conf.json"), outside.body());
            assertEquals(400, get(base + "download").statusCode());
            assertEquals(400, get(base + "log?file=" + encode(fileA) + "&start=-1").statusCode());
        }
    }

    /**
     * With a small {@value ServerConfig#WORKER_LOG_MAX_BYTES}, a worker log rolls as a Storm worker's: to
     * {@code worker.log.1.gz} up to {@code worker.log.9.gz}, the oldest dropped; the logviewer lists the rolled files
     * and shows a rolled file's text uncompressed.
     */
    @Test
    void aWorkerLogRollsAsAStormWorkersAndTheLogViewerReadsTheRolledFiles() throws Exception {
        Configurator.setLevel(WorkerLogsTest.class.getName(), Level.INFO);
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0, ServerConfig.LOGVIEWER_PORT, 0, ServerConfig.WORKER_LOG_MAX_BYTES, 2048);
        try (MicroburstServer server = MicroburstServer.start(conf)) {
            String id = submit(server, "rolling%d-50%", new ChattySpout());
            String log = logFile(server, id);
            String base = "http://127.0.0.1:" + server.logViewerPort() + "/api/v1/";
            java.util.List<String> expected = new java.util.ArrayList<>(java.util.List.of(log));
            for (int i = 1; i <= WorkerLogs.ROLLED_FILES; i++) {
                expected.add(log + "." + i + ".gz");
            }

            awaitContaining(base + "download?file=" + encode(log), "chatty done");
            awaitList(base + "listLogs?topoId=" + encode(id), expected);

            String newestRolled = get(base + "log?file=" + encode(log + ".1.gz") + "&start=0&length=100000&format=text").body();
            assertTrue(LINE_START_ANY.matcher(newestRolled).find(), "shown uncompressed: " + newestRolled);
            assertTrue(newestRolled.contains("chatty line "), newestRolled);
            HttpResponse<byte[]> download = http.send(HttpRequest.newBuilder(URI.create(base + "download?file="
                + encode(log + ".9.gz"))).build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, download.statusCode());
            assertEquals(0x1f, download.body()[0] & 0xff, "downloaded as the gzipped file it is");
            for (String file : expected) {
                String text = get(base + "log?file=" + encode(file) + "&start=0&length=100000&format=text").body();
                assertFalse(text.contains("chatty line 0 "), "the oldest lines were dropped: " + file);
            }
        }
    }

    private void awaitList(String url, java.util.List<String> expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            HttpResponse<String> response = get(url);
            if (response.statusCode() == 200 && expected.equals(JSONValue.parse(response.body()))) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(url + " did not list " + expected + " within 60 s: " + response.statusCode()
                    + " " + response.body());
            }
            Thread.sleep(20);
        }
    }

    private static String submit(MicroburstServer server, String name) throws Exception {
        return submit(server, name, new MarkerSpout());
    }

    private static String submit(MicroburstServer server, String name, BaseRichSpout spout) throws Exception {
        Nimbus.Iface nimbus = server.nimbus();
        String location = nimbus.beginFileUpload();
        nimbus.uploadChunk(location, ByteBuffer.wrap(emptyJar()));
        nimbus.finishFileUpload(location);
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("marker", spout, 1);
        Map<String, Object> topologyConf = new HashMap<>();
        nimbus.submitTopology(name, location, JSONValue.toJSONString(topologyConf), builder.createTopology());
        return server.cluster().getTopologySummaryByName(name).get_id();
    }

    /** The file as Storm's integration tests name it: ID/PORT/worker.log, with the port the executors report. */
    private static String logFile(MicroburstServer server, String id) throws Exception {
        ExecutorSummary executor = server.nimbus().getTopologyInfo(id).get_executors().get(0);
        return id + "/" + executor.get_port() + "/worker.log";
    }

    private String awaitContaining(String url, String text) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            HttpResponse<String> response = get(url);
            if (response.statusCode() == 200 && response.body().contains(text)) {
                return response.body();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(url + " did not show '" + text + "' within 60 s: " + response.statusCode()
                    + " " + response.body());
            }
            Thread.sleep(20);
        }
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static byte[] emptyJar() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new JarOutputStream(bytes).close();
        return bytes.toByteArray();
    }

    /** Logs one line in open and one at its first nextTuple, naming its topology; emits nothing. */
    public static final class MarkerSpout extends BaseRichSpout {
        private String topology;
        private boolean logged;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            topology = (String) conf.get(Config.TOPOLOGY_NAME);
            LOG.info("marker open of {}", topology);
        }

        @Override
        public void nextTuple() {
            if (!logged) {
                logged = true;
                LOG.info("marker nextTuple of {}", topology);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Logs {@value #CHATTY_LINES} numbered lines, then "chatty done"; emits nothing. */
    public static final class ChattySpout extends BaseRichSpout {
        private int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
            if (next < CHATTY_LINES) {
                LOG.info("chatty line {} of a worker log that rolls", next++);
            } else if (next++ == CHATTY_LINES) {
                LOG.info("chatty done");
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
