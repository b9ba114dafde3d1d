package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.microburst.server.web.RuntimeViewTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarOutputStream;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.security.auth.SimpleTransportPlugin;
import org.apache.storm.security.auth.digest.DigestSaslTransportPlugin;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server on a non-loopback address (every interface) with Storm's SASL digest transport: Storm's own clients
 * that authenticate (StormSubmitter, NimbusClient) are served; one without authentication, or with a wrong password,
 * is refused, and the server goes on serving. The server advertises localhost ({@code storm.local.hostname}), so the
 * test talks to loopback only; Storm's digest plugin also expects its clients to name the server localhost.
 */
class ServerSaslDigestTest {
    @TempDir
    Path dir;

    @Test
    void authenticatedClientsAreServedAndOthersRefused() throws Exception {
        // Storm's digest plugin reads only the options of these sections; the login module named is never loaded.
        Path jaas = Files.writeString(dir.resolve("jaas.conf"), """
            StormServer {
                org.apache.storm.security.auth.digest.UnusedLoginModule required
                user_alice="alice-secret";
            };
            StormClient {
                org.apache.storm.security.auth.digest.UnusedLoginModule required
                username="alice"
                password="alice-secret";
            };
            """);
        Path wrong = Files.writeString(dir.resolve("wrong.conf"), """
            StormClient {
                org.apache.storm.security.auth.digest.UnusedLoginModule required
                username="alice"
                password="guessed";
            };
            """);
        Map<String, Object> serverConf = new HashMap<>();
        serverConf.put(ServerConfig.DIR, dir.resolve("data").toString());
        serverConf.put(ServerConfig.BIND, "0.0.0.0");
        serverConf.put(ServerConfig.UI_PORT, 0);
        serverConf.put(Config.NIMBUS_THRIFT_PORT, 0);
        serverConf.put(Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN, DigestSaslTransportPlugin.class.getName());
        serverConf.put("java.security.auth.login.config", jaas.toString());
        serverConf.put(Config.STORM_LOCAL_HOSTNAME, "localhost");
        try (MicroburstServer server = MicroburstServer.start(serverConf)) {
            Map<String, Object> alice = clientConf(server, DigestSaslTransportPlugin.class, jaas);

            submitWithStormSubmitter(alice);
            try (NimbusClient client = NimbusClient.getConfiguredClient(alice)) {
                List<TopologySummary> topologies = client.getClient().getClusterInfo().get_topologies();
                assertEquals(List.of("sasl-submitted"), topologies.stream().map(TopologySummary::get_name).toList());
            }

            Map<String, Object> anonymous = refusedOnce(clientConf(server, SimpleTransportPlugin.class, null));
            assertThrows(Exception.class, () -> {
                try (NimbusClient client = new NimbusClient(anonymous, "localhost", server.thriftPort(), null)) {
                    client.getClient().getClusterInfo();
                }
            }, "a client without authentication is refused");
            Map<String, Object> guessing = refusedOnce(clientConf(server, DigestSaslTransportPlugin.class, wrong));
            assertThrows(Exception.class, () -> {
                try (NimbusClient client = new NimbusClient(guessing, "localhost", server.thriftPort(), null)) {
                    client.getClient().getClusterInfo();
                }
            }, "a client with a wrong password is refused");
            assertEquals(1, server.cluster().getTopologySummaries().size(), "nothing changed by refused clients");

            try (NimbusClient client = NimbusClient.getConfiguredClient(alice)) {
                client.getClient().killTopology("sasl-submitted");
                assertEquals("localhost", client.getClient().getLeader().get_host());
            }
        }
    }

    private static Map<String, Object> clientConf(MicroburstServer server, Class<?> transport, Path jaas) {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.put(Config.STORM_THRIFT_TRANSPORT_PLUGIN, transport.getName());
        conf.put(Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN, transport.getName());
        if (jaas != null) {
            conf.put("java.security.auth.login.config", jaas.toString());
        }
        conf.put(Config.NIMBUS_SEEDS, List.of("localhost"));
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        return conf;
    }

    /** A client that gives up at its first refusal (Storm's clients retry 5 times, 2 s apart, by default). */
    private static Map<String, Object> refusedOnce(Map<String, Object> conf) {
        conf.put(Config.STORM_NIMBUS_RETRY_TIMES, 0);
        return conf;
    }

    /** StormSubmitter as a user's main calls it, with storm.jar naming the jar it uploads. */
    private void submitWithStormSubmitter(Map<String, Object> conf) throws Exception {
        Path jar = dir.resolve("topology.jar");
        new JarOutputStream(Files.newOutputStream(jar)).close();
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new RuntimeViewTest.NumberSpout(), 1);
        builder.setBolt("pass", new RuntimeViewTest.PassBolt(), 1).shuffleGrouping("numbers");
        String previous = System.setProperty("storm.jar", jar.toString());
        try {
            StormSubmitter.submitTopology("sasl-submitted", conf, builder.createTopology());
        } finally {
            if (previous == null) {
                System.clearProperty("storm.jar");
            } else {
                System.setProperty("storm.jar", previous);
            }
        }
    }
}
