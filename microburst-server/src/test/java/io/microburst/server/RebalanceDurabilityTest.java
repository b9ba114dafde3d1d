package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.server.web.RuntimeViewTest;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.jar.JarOutputStream;
import org.apache.storm.Config;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executor counts set by a rebalance are stored before the rebalance is acknowledged, and a server started again on the
 * same folder starts the topology with them (tasks unchanged), in its stored status.
 */
class RebalanceDurabilityTest {
    private static final String NAME = "rebalanced";

    @TempDir
    Path dir;

    @Test
    void rebalancedExecutorCountsSurviveARestart() throws Exception {
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(conf)) {
            Nimbus.Iface nimbus = server.nimbus();
            String location = nimbus.beginFileUpload();
            nimbus.uploadChunk(location, ByteBuffer.wrap(emptyJar()));
            nimbus.finishFileUpload(location);
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("numbers", new RuntimeViewTest.NumberSpout(), 1);
            builder.setBolt("sink", new RuntimeViewTest.PassBolt(), 3).fieldsGrouping("numbers", new Fields("n"));
            Map<String, Object> topologyConf = new HashMap<>();
            topologyConf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
            nimbus.submitTopology(NAME, location, JSONValue.toJSONString(topologyConf), builder.createTopology());
            assertEquals(3, executors(server, "sink"));

            RebalanceOptions options = new RebalanceOptions();
            options.set_wait_secs(0);
            options.put_to_num_executors("sink", 2);
            nimbus.rebalance(NAME, options);
            nimbus.deactivate(NAME);
            awaitTrue(() -> executors(server, "sink") == 2);
        }

        try (MicroburstServer restarted = MicroburstServer.start(conf)) {
            TopologyInfo info = restarted.cluster().getTopologyInfoByName(NAME);
            assertEquals("INACTIVE", info.get_status());
            assertEquals(2, executors(restarted, "sink"));
            assertEquals(3, info.get_executors().stream().filter(e -> e.get_component_id().equals("sink"))
                .mapToInt(e -> e.get_executor_info().get_task_end() - e.get_executor_info().get_task_start() + 1).sum(),
                "the tasks stay");
        }
    }

    private static int executors(MicroburstServer server, String component) {
        try {
            int n = 0;
            for (ExecutorSummary e : server.cluster().getTopologyInfoByName(NAME).get_executors()) {
                if (e.get_component_id().equals(component)) {
                    n++;
                }
            }
            return n;
        } catch (Exception notYet) {
            return -1;
        }
    }

    private static byte[] emptyJar() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new JarOutputStream(bytes).close();
        return bytes.toByteArray();
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
}
