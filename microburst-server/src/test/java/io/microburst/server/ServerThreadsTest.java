package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.microburst.server.web.RuntimeViewTest;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's live threads after repeated submissions and kills over Thrift (as {@code microburst submit},
 * {@code storm kill} and an upgrade's child JVM send them) come back to the level before: each Thrift call once started
 * a thread of its own that stayed, up to 64. The count is waited for, and the threads still there are listed by name.
 * {@code -Dmicroburst.threads.repeat=20} runs it 20 times.
 */
@Timeout(600)
class ServerThreadsTest {
    private static final int CYCLES = 20;
    /** Room for a JDK thread started lazily during the cycles; a leak per cycle or per call shows as 20 or more. */
    private static final int SLACK = 2;
    /** Bounds the waits; idle Thrift workers end after {@link ThriftWorkers#IDLE_SECS}. */
    private static final long SETTLE_MILLIS = 30_000;

    @TempDir
    Path dir;

    @Test
    void submitsAndKillsLeaveNoThreadsBehind() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.threads.repeat", 1); i++) {
            runOnce(dir.resolve("run-" + i));
        }
    }

    private void runOnce(Path dir) throws Exception {
        Map<String, Object> conf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0, ServerConfig.LOGVIEWER_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(conf);
             NimbusClient client = new NimbusClient(new HashMap<>(Utils.readStormConfig()), server.host(),
                 server.thriftPort(), 30_000)) {
            Nimbus.Iface nimbus = client.getClient();
            submitAndKill(nimbus, "warm-up");
            int before = settledAtMost(Integer.MAX_VALUE);
            Map<String, Long> namesBefore = threadsByName();
            for (int i = 0; i < CYCLES; i++) {
                submitAndKill(nimbus, "cycle-" + i);
            }
            int after = settledAtMost(before + SLACK);
            assertTrue(after <= before + SLACK, () -> "live threads " + before + " before " + CYCLES
                + " submit/kill cycles, " + after + " after; before: " + namesBefore + ", after: " + threadsByName());
        }
    }

    private static void submitAndKill(Nimbus.Iface nimbus, String name) throws Exception {
        nimbus.submitTopology(name, upload(nimbus), "{}", topology());
        KillOptions now = new KillOptions();
        now.set_wait_secs(0);
        nimbus.killTopologyWithOpts(name, now);
        long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000;
        while (!nimbus.getClusterInfo().get_topologies().isEmpty()) {
            if (System.nanoTime() > deadline) {
                fail("topology " + name + " still listed " + SETTLE_MILLIS + " ms after its kill");
            }
            Thread.onSpinWait();
        }
    }

    /** The live thread count once it is at most {@code limit} or has stopped falling; polled, bounded. */
    private static int settledAtMost(int limit) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_MILLIS * 1_000_000;
        int count = Thread.getAllStackTraces().size();
        int steadyPolls = 0;
        while (count > limit && System.nanoTime() < deadline || limit == Integer.MAX_VALUE && steadyPolls < 20) {
            Thread.sleep(50); // polling interval of the condition above, not a guess at how long it takes
            int now = Thread.getAllStackTraces().size();
            steadyPolls = now == count ? steadyPolls + 1 : 0;
            count = now;
        }
        return count;
    }

    /** Live threads by name, a trailing number dropped ({@code pool-3-thread-7} counts as {@code pool-3-thread}). */
    private static Map<String, Long> threadsByName() {
        return Thread.getAllStackTraces().keySet().stream().map(t -> t.getName().replaceAll("-?\\d+$", ""))
            .collect(Collectors.groupingBy(n -> n, TreeMap::new, Collectors.counting()));
    }

    private static StormTopology topology() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new RuntimeViewTest.NumberSpout(), 1);
        builder.setBolt("sink", new RuntimeViewTest.PassBolt(), 2).shuffleGrouping("numbers");
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
