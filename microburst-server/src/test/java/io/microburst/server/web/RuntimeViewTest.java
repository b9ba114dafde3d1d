package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.config.ConfigKeys;
import io.microburst.metrics.TaskStats;
import io.microburst.runtime.topology.ThreadView;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.Config;
import org.apache.storm.generated.NotAliveException;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the web face shows beyond Storm's UI, with an acked topology that has run to its end: the threads and the
 * tasks fused into them, queue capacity, and latency histograms (end to end for the spout, execute for the bolts), both
 * in the runtime JSON the pages read and in the Prometheus scrape.
 */
public class RuntimeViewTest {
    private static final int TUPLES = 2000;

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @SuppressWarnings("unchecked")
    void threadsQueuesAndLatencyHistogramsAreShown() throws Exception {
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(conf)) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("numbers", new NumberSpout(), 1);
            builder.setBolt("double", new PassBolt(), 1).shuffleGrouping("numbers");
            builder.setBolt("sink", new PassBolt(), 2).fieldsGrouping("double", new Fields("n"));
            Config topologyConf = new Config();
            topologyConf.put(Config.TOPOLOGY_STATS_SAMPLE_RATE, 1.0);
            topologyConf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort()); // as StormSubmitter sends it
            server.cluster().submitTopology("views", topologyConf, builder.createTopology());
            awaitTrue(() -> ackedBySpout(server) == TUPLES);
            String id = server.cluster().getTopologySummaryByName("views").get_id();

            Map<String, Object> runtime = (Map<String, Object>) JSONValue.parse(get(server, "/api/v1/topology/" + id
                + "/runtime"));
            String scrape = get(server, "/metrics");

            List<Map<String, Object>> threads = (List<Map<String, Object>>) runtime.get("threads");
            Map<String, Object> fused = threads.stream().filter(t -> (Boolean) t.get("spouts")).findFirst().orElseThrow();
            assertEquals(List.of("numbers", "double"), ((List<Map<String, Object>>) fused.get("tasks")).stream()
                .map(t -> t.get("component")).toList(), "the bolt fused into the spout's thread: " + threads);
            assertTrue(((Number) fused.get("queueCapacity")).intValue() > 0, fused.toString());
            assertEquals(2, threads.stream().mapToLong(t -> ((List<?>) t.get("tasks")).stream()
                .filter(task -> "sink".equals(((Map<?, ?>) task).get("component"))).count()).sum());
            List<Map<String, Object>> latencies = (List<Map<String, Object>>) runtime.get("latencies");
            Map<String, Object> complete = latency(latencies, "numbers", "complete");
            Map<String, Object> execute = latency(latencies, "sink", "execute");
            assertTrue(((Number) complete.get("samples")).longValue() > 0, complete.toString());
            assertTrue(((Number) execute.get("samples")).longValue() > 0, execute.toString());
            assertEquals(((Number) complete.get("samples")).longValue(), ((List<?>) complete.get("buckets")).stream()
                .mapToLong(c -> ((Number) c).longValue()).sum(), "every sample in a bucket");
            assertTrue(((Number) complete.get("p99Ms")).doubleValue() <= ((Number) complete.get("maxMs")).doubleValue());

            assertTrue(scrape.contains("microburst_complete_latency_seconds_bucket{component=\"numbers\",le=\"+Inf\","
                + "task=\"" + taskOf(server, "numbers") + "\",topology=\"views\"} " + complete.get("samples") + ".0")
                || scrape.contains("microburst_complete_latency_seconds_count{component=\"numbers\""), scrape);
            assertTrue(scrape.contains("# TYPE microburst_execute_latency_seconds histogram"), scrape);
            assertTrue(scrape.contains("microburst_queue_capacity{thread=\"" + fused.get("name") + "\",topology=\"views\"} "
                + fused.get("queueCapacity") + ".0"), scrape);
            assertTrue(scrape.contains("microburst_backpressure_seconds_total{thread=\"" + fused.get("name") + "\""), scrape);
            assertTrue(scrape.contains("microburst_queue_depth{thread="), scrape);
        }
    }

    /** A spout that floods a slow bolt through a small queue waits for room: that wait is shown as backpressure. */
    @Test
    void waitingForRoomInAFullQueueIsShownAsBackpressure() throws Exception {
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(conf)) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("flood", new FloodSpout(), 1);
            builder.setBolt("slow", new SlowBolt(), 1).shuffleGrouping("flood");
            Config topologyConf = new Config();
            topologyConf.put(ConfigKeys.FUSION, false);
            topologyConf.put(ConfigKeys.EXECUTOR_QUEUE_SIZE, 64);
            topologyConf.put(ConfigKeys.PRODUCER_BATCH_SIZE, 8);
            topologyConf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
            topologyConf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
            server.cluster().submitTopology("flooded", topologyConf, builder.createTopology());

            awaitTrue(() -> thread(server, true).backpressureNanos() > 0);
            awaitTrue(() -> thread(server, false).queuedTuples() > 0);
            String spoutThread = thread(server, true).name();
            Matcher m = Pattern.compile("microburst_backpressure_seconds_total\\{thread=\"" + Pattern.quote(spoutThread)
                + "\",topology=\"flooded\"\\} (\\S+)").matcher(get(server, "/metrics"));

            assertTrue(m.find(), "backpressure of " + spoutThread + " scraped");
            assertTrue(Double.parseDouble(m.group(1)) > 0, m.group());
        }
    }

    private static ThreadView thread(MicroburstServer server, boolean spouts) {
        try {
            return server.cluster().getThreadViews("flooded").stream().filter(t -> t.runsSpouts() == spouts)
                .findFirst().orElseThrow();
        } catch (NotAliveException e) {
            throw new AssertionError(e);
        }
    }

    private static Map<String, Object> latency(List<Map<String, Object>> latencies, String component, String kind) {
        return latencies.stream().filter(l -> component.equals(l.get("component")) && kind.equals(l.get("kind")))
            .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " latency of " + component + ": " + latencies));
    }

    private static int taskOf(MicroburstServer server, String component) throws Exception {
        return server.cluster().getTaskStats("views").stream().filter(t -> t.componentId().equals(component))
            .findFirst().orElseThrow().taskId();
    }

    private static long ackedBySpout(MicroburstServer server) {
        try {
            long acked = 0;
            for (TaskStats t : server.cluster().getTaskStats("views")) {
                for (int s = 0; s < t.outStreamCount(); s++) {
                    acked += t.spoutAckedCount(s);
                }
            }
            return acked;
        } catch (Exception notYet) {
            return -1;
        }
    }

    private String get(MicroburstServer server, String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + server.uiPort() + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), path + ": " + response.body());
        return response.body();
    }

    private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within 60 s");
            }
            Thread.sleep(20);
        }
    }

    /** Emits 0 .. TUPLES-1 once, each tracked. */
    public static final class NumberSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private int next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < TUPLES) {
                collector.emit(new Values(next), next);
                next++;
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Emits as fast as it is called, untracked. */
    public static final class FloodSpout extends BaseRichSpout {
        private transient SpoutOutputCollector collector;
        private long next;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(next++));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Takes a millisecond per tuple. */
    public static final class SlowBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Passes its input on, anchored. */
    public static final class PassBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            collector.emit(new Values(input.getValue(0)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }
}
