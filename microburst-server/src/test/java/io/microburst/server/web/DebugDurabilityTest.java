package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.server.MicroburstServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarOutputStream;
import org.apache.storm.Config;
import org.apache.storm.generated.DebugOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.RebalanceOptions;
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
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debug sampling belongs to the topology, as in Storm (Nimbus keeps it with the topology): set through Nimbus'
 * {@code debug} or the REST API, it still samples after a bolt's instance is replaced following a throw, after a
 * rebalance, and after the server restarts (stored with the topology), and Thrift ({@code component_debug}, the page
 * infos' {@code debug_options}) and REST ({@code debug}, {@code samplingPct}) keep showing it. The bolt emits the
 * number of its instance, so a sampled line says which instance sampled it.
 */
@Timeout(120)
class DebugDurabilityTest {
    private static final String NAME = "sampled";
    /** Instances of {@link Numbered} made so far, in this JVM; each emits its own number. */
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    /** Set by the test: the next tuple {@link Numbered} gets makes it throw. */
    private static final AtomicBoolean THROW = new AtomicBoolean();

    @TempDir
    Path dir;

    @Test
    void aReplacedInstanceKeepsSampling() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            int before = INSTANCES.get();
            String id = submit(server);
            post(server, "/api/v1/topology/" + id + "/component/numbered/debug/enable/100");
            int first = awaitInstance(before);
            awaitSampledBy(server, id, first);
            THROW.set(true);
            awaitSampledBy(server, id, awaitInstance(first));
            assertShown(server, id, 100);
        }
    }

    @Test
    void aRebalanceKeepsSampling() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            int submitted = INSTANCES.get();
            String id = submit(server);
            server.nimbus().debug(NAME, "numbered", true, 100);
            int before = awaitInstance(submitted);
            awaitSampledBy(server, id, before);
            RebalanceOptions options = new RebalanceOptions();
            options.set_wait_secs(0);
            options.put_to_num_executors("numbered", 2);
            server.nimbus().rebalance(NAME, options);
            awaitInstance(before + 1);
            awaitSampledBy(server, id, INSTANCES.get());
            assertShown(server, id, 100);
        }
    }

    @Test
    void aRestartedServerRestoresSampling() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            int submitted = INSTANCES.get();
            String id = submit(server);
            server.nimbus().debug(NAME, "numbered", true, 100);
            server.nimbus().debug(NAME, null, false, 5);
            awaitSampledBy(server, id, awaitInstance(submitted));
        }
        int before = INSTANCES.get();
        try (MicroburstServer restarted = WebTestServer.start(dir)) {
            String id = restarted.cluster().getTopologySummaryByName(NAME).get_id();
            awaitSampledBy(restarted, id, awaitInstance(before));
            assertShown(restarted, id, 100);
            DebugOptions whole = restarted.nimbus().getTopologyInfo(id).get_component_debug().get(id);
            assertEquals(false, whole.is_enable());
            assertEquals(5.0, whole.get_samplingpct());
        }
    }

    /** Waits until an instance of the bolt later than {@code above} was made; returns the latest. */
    private static int awaitInstance(int above) throws InterruptedException {
        WebTestServer.awaitTrue(() -> INSTANCES.get() > above);
        return INSTANCES.get();
    }

    /** Waits until instance {@code instance} of the bolt has a sampled emit in the topology's event log. */
    private static void awaitSampledBy(MicroburstServer server, String id, int instance) throws Exception {
        int port = TopologyHost.port(server.nimbus().getTopologyInfo(id));
        Path events = server.dataDir().resolve("logs/workers-artifacts").resolve(id).resolve(String.valueOf(port))
            .resolve("events.log");
        String line = ",numbered,";
        String values = ",default,[" + instance + "]";
        WebTestServer.awaitTrue(() -> lines(events).stream().anyMatch(l -> l.contains(line) && l.endsWith(values)));
    }

    private static void assertShown(MicroburstServer server, String id, double pct) throws Exception {
        Nimbus.Iface nimbus = server.nimbus();
        DebugOptions component = nimbus.getTopologyInfo(id).get_component_debug().get("numbered");
        assertEquals(true, component.is_enable());
        assertEquals(pct, component.get_samplingpct());
        DebugOptions page = nimbus.getComponentPageInfo(id, "numbered", ":all-time", false).get_debug_options();
        assertEquals(true, page.is_enable());
        assertEquals(pct, page.get_samplingpct());
        RawHttp.Answer rest = RawHttp.send(server.uiPort(), "GET", "/api/v1/topology/" + id + "/component/numbered",
            "127.0.0.1:" + server.uiPort(), Map.of(), null);
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) JSONValue.parse(rest.body());
        assertEquals(true, json.get("debug"), rest.body());
        assertEquals(pct, ((Number) json.get("samplingPct")).doubleValue(), rest.body());
    }

    private static void post(MicroburstServer server, String path) throws Exception {
        RawHttp.Answer answer = RawHttp.send(server.uiPort(), "POST", path, "127.0.0.1:" + server.uiPort(),
            Map.of(WebServer.TOKEN_HEADER, WebTestServer.token(server)), null);
        assertEquals(200, answer.status(), answer.body());
    }

    /** Submits through Nimbus with a jar, as a client does, so that the server stores the topology. */
    private static String submit(MicroburstServer server) throws Exception {
        Nimbus.Iface nimbus = server.nimbus();
        String location = nimbus.beginFileUpload();
        ByteArrayOutputStream jar = new ByteArrayOutputStream();
        new JarOutputStream(jar).close();
        nimbus.uploadChunk(location, ByteBuffer.wrap(jar.toByteArray()));
        nimbus.finishFileUpload(location);
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ticks", new Ticks(), 1);
        builder.setBolt("numbered", new Numbered(), 1).setNumTasks(2).shuffleGrouping("ticks");
        Map<String, Object> conf = Map.of(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        nimbus.submitTopology(NAME, location, JSONValue.toJSONString(conf), builder.createTopology());
        return server.cluster().getTopologySummaryByName(NAME).get_id();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.exists(file) ? Files.readAllLines(file) : List.of();
        } catch (IOException e) {
            return List.of(); // being appended to: read again
        }
    }

    /** Emits a tuple every 2 ms, untracked. */
    public static final class Ticks extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            Utils.sleep(2);
            collector.emit(new Values(1));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("tick"));
        }
    }

    /** Emits its instance's number for each tuple; throws once when the test asks. */
    public static final class Numbered extends BaseBasicBolt {
        private int instance;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            instance = INSTANCES.incrementAndGet();
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            if (THROW.compareAndSet(true, false)) {
                throw new IllegalStateException("a planned failure of instance " + instance);
            }
            collector.emit(new Values(instance));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("instance"));
        }
    }
}
