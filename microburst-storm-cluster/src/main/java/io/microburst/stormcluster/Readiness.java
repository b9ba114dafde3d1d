package io.microburst.stormcluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.SupervisorSummary;
import org.apache.storm.utils.NimbusClient;

/**
 * Whether a starting daemon serves yet, each check answering false (never throwing) until it does.
 *
 * <p>Threading: stateless; any thread.
 */
final class Readiness {
    private Readiness() {
    }

    /** Whether ZooKeeper answers its {@code srvr} command as a serving server (its port opens before it serves). */
    static boolean zookeeperServes(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return answer.contains("Mode:");
        } catch (IOException notYet) {
            return false;
        }
    }

    /** Whether something accepts connections on {@code port} of the loopback interface. */
    static boolean accepts(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** Whether the Nimbus {@code clientConf} names lists a Supervisor with at least {@code slots} slots. */
    static boolean slotsOffered(Map<String, Object> clientConf, int slots) {
        try (NimbusClient client = NimbusClient.getConfiguredClient(clientConf, 5_000)) {
            ClusterSummary summary = client.getClient().getClusterInfo();
            for (SupervisorSummary supervisor : summary.get_supervisors()) {
                if (supervisor.get_num_workers() >= slots) {
                    return true;
                }
            }
            return false;
        } catch (Exception notYet) {
            return false;
        }
    }
}
