package io.microburst.it.soak;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.ClusterSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * What an operator's scripts use against the server: Storm's own clients over Thrift ({@code StormSubmitter},
 * {@code NimbusClient}) and the UI REST API over HTTP, with the token. A new Thrift connection per call, so a client
 * outlives server restarts. Safe for use by several threads.
 */
final class SoakClient {
    /** A call's work, on a fresh Nimbus connection. */
    interface NimbusCall<T> {
        T call(Nimbus.Iface nimbus) throws Exception;
    }

    private final SoakServer server;
    private final Path jar;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();

    SoakClient(SoakServer server, Path jar) {
        this.server = server;
        this.jar = jar;
    }

    Map<String, Object> clientConf() {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        return conf;
    }

    <T> T nimbus(NimbusCall<T> call) throws Exception {
        try (NimbusClient client = new NimbusClient(clientConf(), "127.0.0.1", server.thriftPort(), 30_000)) {
            return call.call(client.getClient());
        }
    }

    /** Uploads the jar and submits, as {@code storm jar} does, through storm-client's StormSubmitter. */
    void submit(SoakTopologies.Planned planned, boolean active) throws Exception {
        Map<String, Object> conf = new HashMap<>(clientConf());
        conf.putAll(planned.conf());
        synchronized (SoakClient.class) { // storm.jar is a JVM-wide property StormSubmitter reads
            String before = System.getProperty("storm.jar");
            System.setProperty("storm.jar", jar.toString());
            try {
                StormSubmitter.submitTopology(planned.name(), conf, planned.topology(), new SubmitOptions(
                    active ? TopologyInitialStatus.ACTIVE : TopologyInitialStatus.INACTIVE), null);
            } finally {
                if (before == null) {
                    System.clearProperty("storm.jar");
                } else {
                    System.setProperty("storm.jar", before);
                }
            }
        }
    }

    /** Every topology the server lists, by name, with its status; through Thrift. */
    Map<String, TopologySummary> topologies() throws Exception {
        ClusterSummary summary = nimbus(Nimbus.Iface::getClusterInfo);
        Map<String, TopologySummary> out = new HashMap<>();
        for (TopologySummary t : summary.get_topologies()) {
            out.put(t.get_name(), t);
        }
        return out;
    }

    /** A GET on the web port: the status code and body. */
    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.web() + path)).timeout(Duration.ofSeconds(30))
            .build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A POST to the REST API with the token; fails unless Storm's "success" comes back. */
    void post(String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.web() + path))
            .timeout(Duration.ofSeconds(30)).header("X-Microburst-Token", server.token())
            .header("Content-Type", "application/json")
            .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
            .build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 || !response.body().contains("\"success\"")) {
            throw new IllegalStateException("POST " + path + ": " + response.statusCode() + " " + response.body());
        }
    }
}
