package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.OwnerResourceSummary;
import org.apache.storm.generated.SupervisorPageInfo;
import org.apache.storm.generated.WorkerSummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster-wide Nimbus calls Storm's UI server makes, over Thrift with storm-client's own {@link NimbusClient}:
 * {@code getSupervisorPageInfo}, {@code getTopologyHistory} and {@code getOwnerResourceSummaries} answer in Storm's
 * shape, and {@code debug} sets the options the page infos and the REST API show (the page calls {@code getTopologyPageInfo}, {@code getComponentPageInfo} and {@code getLogConfig} are
 * tested with the server's web face).
 */
@Timeout(120)
class StormUiThriftCallsTest {
    @TempDir
    Path dir;

    @Test
    void supervisorHistoryAndOwnerCallsAnswerInStormsShape() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            String id = WebTestServer.submit(server, "asked");
            Map<String, Object> conf = Utils.readDefaultConfig();
            conf.put(Config.NIMBUS_SEEDS, List.of("localhost"));
            conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
            try (NimbusClient client = new NimbusClient(conf, "localhost", server.thriftPort(), null)) {
                Nimbus.Iface nimbus = client.getClient();
                String supervisor = nimbus.getClusterInfo().get_supervisors().get(0).get_supervisor_id();

                SupervisorPageInfo page = nimbus.getSupervisorPageInfo(supervisor, null, false);
                assertEquals(supervisor, page.get_supervisor_summaries().get(0).get_supervisor_id());
                WorkerSummary worker = page.get_worker_summaries().get(0);
                assertEquals(id, worker.get_topology_id());
                assertEquals(Map.of("spout", 8L, "split", 8L, "count", 1L), worker.get_component_to_num_tasks());
                assertThrows(NotAliveException.class, () -> nimbus.getSupervisorPageInfo("elsewhere", null, false));

                assertEquals(List.of(id), nimbus.getTopologyHistory(System.getProperty("user.name")).get_topo_ids());

                OwnerResourceSummary owner = nimbus.getOwnerResourceSummaries(null).get(0);
                assertEquals(System.getProperty("user.name"), owner.get_owner());
                assertEquals(1, owner.get_total_topologies());
                assertEquals(List.of(), nimbus.getOwnerResourceSummaries("nobody"));

                nimbus.debug("asked", "split", true, 30);
                assertEquals(30.0, nimbus.getComponentPageInfo(id, "split", ":all-time", false).get_debug_options()
                    .get_samplingpct());
                assertEquals(false, nimbus.getTopologyPageInfo(id, ":all-time", false).get_debug_options().is_enable());
                RawHttp.Answer rest = RawHttp.send(server.uiPort(), "GET", "/api/v1/topology/" + id + "/component/split",
                    "127.0.0.1:" + server.uiPort(), Map.of(), null);
                assertTrue(rest.body().contains("\"debug\":true") && rest.body().contains("\"samplingPct\":30.0"),
                    rest.body());
            }
        }
    }
}
