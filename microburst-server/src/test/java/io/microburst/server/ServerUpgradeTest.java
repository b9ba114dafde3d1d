package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cluster.upgrade.UpgradeOptions;
import io.microburst.server.web.RuntimeViewTest;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarOutputStream;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's side of an upgrade: a submit with {@code microburst.upgrade} of a running name becomes its new version,
 * the previous one is kept on disk, a rollback (a rebalance naming {@code microburst.upgrade.rollback}, as
 * {@code microburst upgrade --rollback} sends it) returns to it, a restart starts the stored version as a plain submit,
 * and a kill forgets both. {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
class ServerUpgradeTest {
    private static final String NAME = "upgraded";

    @TempDir
    Path dir;

    @Test
    void upgradeRollbackRestartKill() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce(dir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0);
        String secondId;
        try (MicroburstServer server = MicroburstServer.start(conf)) {
            Nimbus.Iface nimbus = server.nimbus();
            nimbus.submitTopology(NAME, upload(nimbus), "{}", topology(3, false));
            String firstId = nimbus.getTopologySummaryByName(NAME).get_id();

            Map<String, Object> upgrade = new HashMap<>();
            upgrade.put(UpgradeOptions.UPGRADE, true);
            upgrade.put(UpgradeOptions.NAME, "another");
            InvalidTopologyException wrongName = assertThrows(InvalidTopologyException.class, () -> nimbus
                .submitTopology(NAME, upload(nimbus), JSONValue.toJSONString(upgrade), topology(2, true)));
            assertTrue(wrongName.get_msg().contains("submitted topology 'upgraded' instead"), wrongName.get_msg());
            assertEquals(firstId, nimbus.getTopologySummaryByName(NAME).get_id(), "the running version untouched");

            upgrade.put(UpgradeOptions.NAME, NAME);
            upgrade.put(UpgradeOptions.WAIT_SECS, 5);
            nimbus.submitTopology(NAME, upload(nimbus), JSONValue.toJSONString(upgrade), topology(2, true));
            TopologySummary second = nimbus.getTopologySummaryByName(NAME);
            secondId = second.get_id();
            assertNotEquals(firstId, secondId);
            assertTrue(second.get_sched_status().startsWith("upgraded to version 2"), second.get_sched_status());
            assertTrue(nimbus.getTopology(secondId).get_bolts().containsKey("extra"));
            assertTrue(Files.isDirectory(dir.resolve("previous-versions").resolve(NAME)));
            String rest = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.uiPort() + "/api/v1/topology/" + firstId)).GET().build(), BodyHandlers.ofString()).body();
            assertTrue(rest.contains("\"id\":\"" + secondId + "\"") && rest.contains("\"schedulerInfo\":\"upgraded to "
                + "version 2"), "the first version's id finds the upgraded topology, its last upgrade shown: " + rest);

            RebalanceOptions rollback = new RebalanceOptions();
            rollback.set_topology_conf_overrides(JSONValue.toJSONString(Map.of(UpgradeOptions.ROLLBACK, true)));
            nimbus.rebalance(NAME, rollback);
            TopologySummary third = nimbus.getTopologySummaryByName(NAME);
            assertTrue(third.get_sched_status().startsWith("upgraded to version 3"), third.get_sched_status());
            assertFalse(nimbus.getTopology(third.get_id()).get_bolts().containsKey("extra"), "back to version 1");
        }
        try (MicroburstServer restarted = MicroburstServer.start(conf)) {
            Nimbus.Iface nimbus = restarted.nimbus();
            TopologySummary restored = nimbus.getTopologySummaryByName(NAME);
            assertFalse(nimbus.getTopology(restored.get_id()).get_bolts().containsKey("extra"), "the stored version");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            nimbus.killTopologyWithOpts(NAME, now);
            assertFalse(Files.exists(dir.resolve("previous-versions").resolve(NAME)));
            assertThrows(NotAliveException.class, () -> nimbus.rebalance(NAME, new RebalanceOptions()));
        }
    }

    private static StormTopology topology(int sinks, boolean extra) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new RuntimeViewTest.NumberSpout(), 1);
        builder.setBolt("sink", new RuntimeViewTest.PassBolt(), sinks).fieldsGrouping("numbers", new Fields("n"));
        if (extra) {
            builder.setBolt("extra", new RuntimeViewTest.PassBolt(), 1).shuffleGrouping("numbers");
        }
        return builder.createTopology();
    }

    private static String upload(Nimbus.Iface nimbus) throws Exception {
        String location = nimbus.beginFileUpload();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new JarOutputStream(bytes).close();
        nimbus.uploadChunk(location, ByteBuffer.wrap(bytes.toByteArray()));
        nimbus.finishFileUpload(location);
        return location;
    }
}
