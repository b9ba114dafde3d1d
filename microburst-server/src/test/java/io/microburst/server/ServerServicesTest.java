package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The services a server starts, in order, and a start that fails half way: what started is stopped again. */
@Timeout(120)
class ServerServicesTest {
    @TempDir
    Path dir;

    private Map<String, Object> conf(Map<String, Object> extra) {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, dir.toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.LOGVIEWER_PORT, 0);
        conf.putAll(extra);
        return conf;
    }

    @Test
    void startsItsServicesInOrder() throws Exception {
        Map<String, Object> drpc = Map.of(ServerConfig.DRPC, true, Config.DRPC_PORT, 0, Config.DRPC_INVOCATIONS_PORT, 0,
            ServerConfig.DRPC_HTTP_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(conf(drpc))) {
            assertEquals(List.of("data folder lock", "scheduler", "worker logs", "DRPC", "cluster", "graceful stop", "Nimbus Thrift",
                "web", "logviewer"), server.services());
        }
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of()))) {
            assertEquals(List.of("data folder lock", "scheduler", "worker logs", "cluster", "graceful stop", "Nimbus Thrift",
                "web", "logviewer"), server.services());
        }
    }

    @Test
    void aStartThatFailsStopsWhatStartedAndUnlocksTheDataFolder() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IOException failed = assertThrows(IOException.class,
                () -> MicroburstServer.start(conf(Map.of(ServerConfig.UI_PORT, taken.getLocalPort()))));
            assertTrue(failed.getMessage().startsWith("cannot start the web server on 127.0.0.1:" + taken.getLocalPort()),
                failed.getMessage());
        }
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of()))) {
            assertTrue(server.thriftPort() > 0);
        }
    }

    @Test
    void aSecondServerOnTheSameFolderIsRefused() throws Exception {
        try (MicroburstServer server = MicroburstServer.start(conf(Map.of()))) {
            // in this process: the JDK's OverlappingFileLockException; from another: "Another microburst server is using"
            assertThrows(IllegalStateException.class, () -> MicroburstServer.start(conf(Map.of())));
            assertTrue(server.nimbus().getClusterInfo().get_nimbuses_size() > 0);
        }
    }
}
