package io.microburst.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.cli.testsupport.TopologyJarBuilder;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.TopologySummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code microburst upgrade} as an operator runs it against a {@code microburst server} in this JVM, with a jar built
 * from source: an upgrade of a name that is not running is refused in one line and the running version stays; an upgrade makes version 2 under the same name; {@code --rollback} makes version 3 from the previous jar.
 * {@code -Dmicroburst.upgrade.repeat=20} runs it 20 times.
 */
@Timeout(900)
class ServerUpgradeEndToEndTest {
    private static final String NAME = "recording";

    @TempDir
    Path dir;

    @Test
    void upgradeAndRollBackFromTheCommandLine() throws Exception {
        Path jar = TopologyJarBuilder.build(RecordingTopologySource.sources(),
            Files.createDirectories(dir.resolve("build")));
        for (int i = 0; i < Integer.getInteger("microburst.upgrade.repeat", 1); i++) {
            runOnce(jar, dir.resolve("run-" + i));
        }
    }

    private static void runOnce(Path jar, Path dir) throws Exception {
        try (MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
            Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            String record = dir.resolve("record.txt").toString();
            String main = RecordingTopologySource.MAIN_CLASS;
            assertEquals(0, microburst(server, "submit", jar.toString(), main, record).status);
            String firstId = summary(server).get_id();

            Run wrongName = microburst(server, "upgrade", "other", jar.toString(), main, record);
            assertEquals(1, wrongName.status, wrongName.err);
            assertEquals("microburst: upgrade: no topology named 'other' is running; 'microburst list' shows the "
                + "running ones", wrongName.err.strip());
            assertEquals(firstId, summary(server).get_id(), "the running version untouched");

            Run upgraded = microburst(server, "upgrade", "--wait", "5", NAME, jar.toString(), main, record);
            assertEquals(0, upgraded.status, upgraded.err);
            TopologySummary second = summary(server);
            assertNotEquals(firstId, second.get_id());
            assertTrue(second.get_sched_status().startsWith("upgraded to version 2"), second.get_sched_status());
            assertTrue(upgraded.out.contains("\n  upgraded to version 2 (" + firstId + " -> " + second.get_id() + ") at "),
                "the command tells the upgrade: " + upgraded.out);

            Run rolledBack = microburst(server, "upgrade", "--rollback", NAME);
            assertEquals(0, rolledBack.status, rolledBack.err);
            TopologySummary third = summary(server);
            assertTrue(third.get_sched_status().startsWith("upgraded to version 3"));
            assertEquals("Rolled back topology: " + NAME + "\n  " + third.get_sched_status(), rolledBack.out.strip());
            assertFalse(microburst(server, "upgrade", "--rollback", "missing").err.contains("\tat "), "no trace");
        }
    }

    private static TopologySummary summary(MicroburstServer server) throws Exception {
        return server.cluster().getTopologySummaryByName(NAME);
    }

    record Run(int status, String out, String err) {
    }

    private static Run microburst(MicroburstServer server, String verb, String... args) {
        List<String> all = new ArrayList<>(List.of(verb, "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + server.thriftPort()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
