package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the server refuses, and that hostile input never stops it serving. */
class ServerSecurityTest {
    @TempDir
    Path dir;

    private Map<String, Object> conf(Map<String, Object> extra) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, dir.toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.putAll(extra);
        return conf;
    }

    @Test
    void aNonLoopbackAddressWithoutAuthenticationIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> MicroburstServer.start(conf(Map.of(ServerConfig.BIND, "0.0.0.0"))));

        assertTrue(refused.getMessage().startsWith("Refusing to listen on 0.0.0.0 without authentication"),
            refused.getMessage());
    }

    @Test
    void allowedHostsThatAreNotNamesAreRefusedByKey() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> MicroburstServer.start(conf(Map.of(ServerConfig.HTTP_ALLOWED_HOSTS, 42))));

        assertEquals(ServerConfig.HTTP_ALLOWED_HOSTS + " must be a list of host names, or names separated by commas: 42",
            refused.getMessage());
    }

    @Test
    void listensOnLoopbackOnlyByDefault() throws Exception {
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of()))) {
            assertEquals("127.0.0.1", server.host());
            String other = InetAddress.getLocalHost().getHostAddress();
            if (!InetAddress.getByName(other).isLoopbackAddress()) {
                assertThrows(IOException.class, () -> new Socket(other, server.thriftPort()).close());
            }
        }
    }

    /**
     * 1,000 malformed frames: random bytes, frame lengths far beyond the limit, negative lengths, frames cut short,
     * valid frames of garbage. Each connection is refused on its own; the service still answers afterwards.
     */
    @Test
    void thousandMalformedFramesLeaveTheServerServing() throws Exception {
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of()))) {
            Random random = new Random(42);
            for (int i = 0; i < 1000; i++) {
                try (Socket socket = new Socket("127.0.0.1", server.thriftPort())) {
                    OutputStream out = socket.getOutputStream();
                    out.write(malformedFrame(i % 5, random));
                    out.flush();
                } catch (IOException closedByServer) {
                    // the server may close first: that is the expected answer
                }
            }
            try (NimbusClient client = client(server)) {
                assertEquals(0, client.getClient().getClusterInfo().get_topologies_size());
            }
        }
    }

    private static byte[] malformedFrame(int kind, Random random) {
        byte[] garbage = new byte[1 + random.nextInt(200)];
        random.nextBytes(garbage);
        ByteBuffer frame = ByteBuffer.allocate(4 + garbage.length);
        switch (kind) {
            case 0 -> frame.put(garbage, 0, Math.min(garbage.length, frame.capacity())); // no valid length at all
            case 1 -> frame.putInt(Integer.MAX_VALUE).put(garbage); // far beyond nimbus.thrift.max_buffer_size
            case 2 -> frame.putInt(-1 - random.nextInt(1000)).put(garbage); // negative length
            case 3 -> frame.putInt(garbage.length * 10).put(garbage); // cut short
            default -> frame.putInt(garbage.length).put(garbage); // a complete frame of garbage
        }
        return frame.array();
    }

    @Test
    void callsOneMachineCannotHonourAndOversizedUploadsAreRefusedByName() throws Exception {
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of(ServerConfig.UPLOAD_MAX_BYTES, 1000)));
             NimbusClient client = client(server)) {
            Nimbus.Iface nimbus = client.getClient();

            TApplicationException unsupported = assertThrows(TApplicationException.class,
                () -> nimbus.getSupervisorAssignments("node"));
            String upload = nimbus.beginFileUpload();
            TApplicationException tooLarge = assertThrows(TApplicationException.class,
                () -> nimbus.uploadChunk(upload, ByteBuffer.wrap(new byte[1001])));
            TApplicationException noUpload = assertThrows(TApplicationException.class,
                () -> nimbus.submitTopology("t", "../../etc/passwd", "{}", emptyTopology()));

            assertTrue(unsupported.getMessage().startsWith("getSupervisorAssignments"), unsupported.getMessage());
            assertTrue(tooLarge.getMessage().contains("larger than 1000 bytes"), tooLarge.getMessage());
            assertTrue(noUpload.getMessage().contains("no finished jar upload at '../../etc/passwd'"),
                noUpload.getMessage());
            assertThrows(TApplicationException.class, () -> nimbus.finishFileUpload(upload));
        }
    }

    @Test
    void topologyNamesAreValidated() throws Exception {
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of()));
             NimbusClient client = client(server)) {
            Nimbus.Iface nimbus = client.getClient();
            for (String name : new String[] {"../escape", "a/b", "", "..", "x".repeat(300)}) {
                assertThrows(InvalidTopologyException.class,
                    () -> nimbus.submitTopology(name, "none", "{}", emptyTopology()), name);
                assertEquals(false, nimbus.isTopologyNameAllowed(name), name);
            }
        }
    }

    private static StormTopology emptyTopology() {
        return new StormTopology(new HashMap<>(), new HashMap<>(), new HashMap<>());
    }

    private static NimbusClient client(MicroburstServer server) throws Exception {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        return new NimbusClient(conf, server.host(), server.thriftPort(), 30_000);
    }
}
