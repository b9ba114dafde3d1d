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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
        List<String> lineage; // from and to of each upgrade
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
            assertUpgrades(server, secondId, List.of(firstId, secondId));

            RebalanceOptions rollback = new RebalanceOptions();
            rollback.set_topology_conf_overrides(JSONValue.toJSONString(Map.of(UpgradeOptions.ROLLBACK, true)));
            nimbus.rebalance(NAME, rollback);
            TopologySummary third = nimbus.getTopologySummaryByName(NAME);
            assertTrue(third.get_sched_status().startsWith("upgraded to version 3"), third.get_sched_status());
            assertFalse(nimbus.getTopology(third.get_id()).get_bolts().containsKey("extra"), "back to version 1");
            lineage = List.of(firstId, secondId, secondId, third.get_id());
            assertUpgrades(server, third.get_id(), lineage);
            // a refused upgrade stores the running version back, with its upgrades
            String misnamed = JSONValue.toJSONString(Map.of(UpgradeOptions.UPGRADE, true, UpgradeOptions.NAME, "another"));
            assertThrows(InvalidTopologyException.class, () -> nimbus.submitTopology(NAME, upload(nimbus), misnamed,
                topology(2, true)));
            assertEquals(third.get_id(), nimbus.getTopologySummaryByName(NAME).get_id());
        }
        try (MicroburstServer restarted = MicroburstServer.start(conf)) {
            Nimbus.Iface nimbus = restarted.nimbus();
            TopologySummary restored = nimbus.getTopologySummaryByName(NAME);
            assertFalse(nimbus.getTopology(restored.get_id()).get_bolts().containsKey("extra"), "the stored version");
            assertTrue(restored.get_sched_status().startsWith("upgraded to version 3"), "the last upgrade is still "
                + "shown after a restart: " + restored.get_sched_status());
            assertUpgrades(restarted, restored.get_id(), lineage);
            Map<String, Object> again = Map.of(UpgradeOptions.UPGRADE, true, UpgradeOptions.WAIT_SECS, 5);
            nimbus.submitTopology(NAME, upload(nimbus), JSONValue.toJSONString(again), topology(1, true));
            TopologySummary fourth = nimbus.getTopologySummaryByName(NAME);
            assertTrue(fourth.get_sched_status().startsWith("upgraded to version 4 (" + restored.get_id() + " -> "),
                "the versions go on after a restart: " + fourth.get_sched_status());
            List<String> longer = new ArrayList<>(lineage);
            longer.add(restored.get_id()); // the restarted version's id, not the last upgrade's
            longer.add(fourth.get_id());
            assertUpgrades(restarted, fourth.get_id(), longer);
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            nimbus.killTopologyWithOpts(NAME, now);
            assertFalse(Files.exists(dir.resolve("previous-versions").resolve(NAME)));
            assertThrows(NotAliveException.class, () -> nimbus.rebalance(NAME, new RebalanceOptions()));
        }
    }

    /**
     * The REST API's {@code upgrades} of the topology {@code id}: versions 2, 3... in order, upgrade i from
     * {@code fromTo[2i]} to {@code fromTo[2i + 1]}, in time order, each with a gap.
     */
    private static void assertUpgrades(MicroburstServer server, String id, List<String> fromTo) throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + server.uiPort() + "/api/v1/topology/" + id)).GET().build(), BodyHandlers.ofString()).body();
        @SuppressWarnings("unchecked")
        List<Object> upgrades = (List<Object>) ((Map<String, Object>) JSONValue.parse(body)).get("upgrades");
        assertEquals(fromTo.size() / 2, upgrades == null ? -1 : upgrades.size(), "upgrades of " + id + ": " + body);
        long before = 0;
        for (int i = 0; i < upgrades.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, Object> u = (Map<String, Object>) upgrades.get(i);
            assertEquals(i + 2, ((Number) u.get("version")).intValue(), body);
            assertEquals(List.of(fromTo.get(2 * i), fromTo.get(2 * i + 1)), List.of(u.get("fromId"), u.get("toId")),
                "upgrade " + (i + 2) + ": " + body);
            long at = java.time.Instant.parse(String.valueOf(u.get("time"))).toEpochMilli();
            assertTrue(at >= before && at <= System.currentTimeMillis(), "in time order, not in the future: " + body);
            before = at;
            assertTrue(((Number) u.get("gapMs")).longValue() >= 0 && ((Number) u.get("failedBack")).longValue() >= 0,
                body);
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
