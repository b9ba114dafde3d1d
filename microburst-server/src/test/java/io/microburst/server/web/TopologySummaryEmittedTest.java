package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.server.MicroburstServer;
import io.microburst.server.web.RawHttp.Answer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
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
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster page's topology list needs no topology page: each {@code topology/summary} row's {@code emitted} is the
 * count the topology's page shows in {@code topologyStats}' {@code :all-time} window (a spout emitting a known number
 * of tuples, a bolt passing each on), and the page's configuration, embedded as {@code getTopologyConf} wrote it,
 * is still the topology's configuration map.
 */
@Timeout(120)
class TopologySummaryEmittedTest {
    private static final int TUPLES = 500;

    @TempDir
    Path dir;

    @Test
    void summaryRowsCarryTheAllTimeEmittedOfTheTopologyPage() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            String token = WebTestServer.token(server);
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("counted", new CountedSpout(), 1);
            builder.setBolt("pass", new PassOn(), 2).shuffleGrouping("counted");
            Config conf = new Config();
            conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
            conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 77);
            server.cluster().submitTopology("counted", conf, builder.createTopology());
            String id = server.cluster().getTopologySummaryByName("counted").get_id();
            long expected = 2L * TUPLES; // the spout's, then the bolt's
            WebTestServer.awaitTrue(() -> allTimeEmitted(json(server, token, "/api/v1/topology/" + id)) == expected
                && summaryEmitted(json(server, token, "/api/v1/topology/summary"), id) == expected);
            Map<String, Object> page = json(server, token, "/api/v1/topology/" + id);
            Map<?, ?> configuration = (Map<?, ?>) page.get("configuration");
            assertEquals(77, ((Number) configuration.get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS)).intValue());
            assertEquals(77, ((Number) page.get("msgTimeout")).intValue());
            assertEquals("counted", configuration.get(Config.TOPOLOGY_NAME));
        }
    }

    @SuppressWarnings("unchecked")
    private static long allTimeEmitted(Map<String, Object> page) {
        for (Map<String, Object> s : (List<Map<String, Object>>) page.get("topologyStats")) {
            if (":all-time".equals(s.get("window"))) {
                return ((Number) s.get("emitted")).longValue();
            }
        }
        throw new AssertionError("no :all-time window: " + page.get("topologyStats"));
    }

    @SuppressWarnings("unchecked")
    private static long summaryEmitted(Map<String, Object> summary, String id) {
        for (Map<String, Object> row : (List<Map<String, Object>>) summary.get("topologies")) {
            if (id.equals(row.get("id"))) {
                return ((Number) row.get("emitted")).longValue();
            }
        }
        throw new AssertionError("no row for " + id + ": " + summary);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(MicroburstServer server, String token, String path) {
        try {
            Answer answer = RawHttp.send(server.uiPort(), "GET", path, "127.0.0.1:" + server.uiPort(),
                Map.of(WebServer.TOKEN_HEADER, token), null);
            assertEquals(200, answer.status(), answer.body());
            return (Map<String, Object>) JSONValue.parse(answer.body());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Emits {@value #TUPLES} numbers, unanchored, then nothing. */
    static final class CountedSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;
        private int emitted;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (emitted < TUPLES) {
                collector.emit(new Values(emitted++));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Emits each number it gets once. */
    static final class PassOn extends BaseBasicBolt {
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
