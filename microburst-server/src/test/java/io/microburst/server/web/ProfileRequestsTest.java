package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NodeInfo;
import org.apache.storm.generated.ProfileAction;
import org.apache.storm.generated.ProfileRequest;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nimbus' {@code setWorkerProfiler} and {@code getComponentPendingProfileActions} over Thrift, through storm-client's
 * own {@link NimbusClient}, called as Storm's UI calls them: a thread dump written where the logviewer serves it, a
 * flight recording started by a {@code JPROFILE_STOP} still to come, shown pending (and on the REST component page, the
 * same profiler), dumped and stopped; a restart of the worker refused with what to do; a worker the topology does not
 * have refused.
 */
@Timeout(120)
class ProfileRequestsTest {
    @TempDir
    Path dir;

    @Test
    void profileRequestsDoWhatTheRestProfilingOperationsDo() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            String id = WebTestServer.submit(server, "profiled");
            Map<String, Object> conf = Utils.readDefaultConfig();
            conf.put(Config.NIMBUS_SEEDS, List.of("localhost"));
            conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
            try (NimbusClient client = new NimbusClient(conf, "localhost", server.thriftPort(), null)) {
                Nimbus.Iface nimbus = client.getClient();
                TopologyInfo info = nimbus.getTopologyInfo(id);
                String host = TopologyHost.of(info);
                int port = TopologyHost.port(info);
                Path files = dir.resolve("logs/workers-artifacts").resolve(id).resolve(String.valueOf(port));

                long now = System.currentTimeMillis();
                nimbus.setWorkerProfiler(id, request(host, port, ProfileAction.JSTACK_DUMP, now));
                Path jstack = only(files, "jstack-");
                assertTrue(Files.readString(jstack).contains("Threads of topology profiled"), jstack.toString());

                long stopAt = System.currentTimeMillis() + 60_000;
                nimbus.setWorkerProfiler(id, request(host, port, ProfileAction.JPROFILE_STOP, stopAt));
                List<ProfileRequest> pending = nimbus.getComponentPendingProfileActions(id, "split",
                    ProfileAction.JPROFILE_STOP);
                assertEquals(List.of(request(host, port, ProfileAction.JPROFILE_STOP, stopAt)), pending);
                assertEquals(List.of(), nimbus.getComponentPendingProfileActions(id, "nope",
                    ProfileAction.JPROFILE_STOP));
                assertEquals(List.of(), nimbus.getComponentPendingProfileActions(id, "split",
                    ProfileAction.JMAP_DUMP));
                RawHttp.Answer page = RawHttp.send(server.uiPort(), "GET", "/api/v1/topology/" + id
                    + "/component/split", "127.0.0.1:" + server.uiPort(), Map.of(), null);
                assertTrue(page.body().contains("\"profilerActive\":[{\"host\""), page.body());

                long recordings = count(files, "recording-");
                nimbus.setWorkerProfiler(id, request(host, port, ProfileAction.JPROFILE_DUMP, now));
                assertEquals(recordings + 1, count(files, "recording-"), "a dump of the recording so far");
                nimbus.setWorkerProfiler(id, request(host, port, ProfileAction.JPROFILE_STOP, 0));
                assertEquals(List.of(), nimbus.getComponentPendingProfileActions(id, "split",
                    ProfileAction.JPROFILE_STOP));
                try (Stream<Path> written = Files.list(files)) {
                    assertTrue(written.filter(f -> f.getFileName().toString().startsWith("recording-"))
                        .allMatch(f -> f.toFile().length() > 0), "the stopped recording is written");
                }

                TApplicationException restart = assertThrows(TApplicationException.class,
                    () -> nimbus.setWorkerProfiler(id, request(host, port, ProfileAction.JVM_RESTART, now)));
                assertTrue(restart.getMessage().contains("JVM_RESTART") && restart.getMessage().contains("rebalance"),
                    restart.getMessage());
                TApplicationException elsewhere = assertThrows(TApplicationException.class,
                    () -> nimbus.setWorkerProfiler(id, request(host, port + 1, ProfileAction.JSTACK_DUMP, now)));
                assertTrue(elsewhere.getMessage().contains("its one worker is " + host + ":" + port),
                    elsewhere.getMessage());
                TApplicationException unknown = assertThrows(TApplicationException.class,
                    () -> nimbus.getComponentPendingProfileActions("gone-1-1", "split", ProfileAction.JPROFILE_STOP));
                assertTrue(unknown.getMessage().contains("gone-1-1"), unknown.getMessage());
            }
        }
    }

    private static ProfileRequest request(String host, int port, ProfileAction action, long timestamp) {
        ProfileRequest request = new ProfileRequest(new NodeInfo(host, Set.of((long) port)), action);
        request.set_time_stamp(timestamp);
        return request;
    }

    private static Path only(Path folder, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> found = files.filter(f -> f.getFileName().toString().startsWith(prefix)).toList();
            assertEquals(1, found.size(), found.toString());
            return found.get(0);
        }
    }

    private static long count(Path folder, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).count();
        }
    }
}
