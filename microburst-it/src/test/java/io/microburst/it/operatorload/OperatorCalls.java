package io.microburst.it.operatorload;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.Config;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * What operators ask a server: each request a dashboard, a browser on the pages, Prometheus and a script make, by name,
 * each answering the bytes it got. The pages' requests are the ones their scripts make at each refresh (index.js: the
 * summaries, and before 2026-11-28 every topology's page; topology.js: the topology, its graph, runtime and tuples).
 * One instance per client thread: it keeps one Thrift connection.
 */
final class OperatorCalls implements AutoCloseable {
    /** A call that answers the size of what came back, failing on anything but success. */
    interface Call {
        long run() throws Exception;
    }

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private final LoadServer server;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    private NimbusClient nimbus;
    /** Whether the server's index page asks every topology's page at each refresh; null until read. */
    private Boolean pagePerTopology;

    OperatorCalls(LoadServer server) {
        this.server = server;
    }

    /** Every call of one operator sweep, by name, on the topology {@code id} (with component {@code component}). */
    Map<String, Call> sweep(String id, String component) {
        Map<String, Call> calls = new LinkedHashMap<>();
        calls.put("GET /metrics", () -> get("/metrics"));
        calls.put("GET /api/v1/cluster/summary", () -> get("/api/v1/cluster/summary"));
        calls.put("GET /api/v1/topology/summary", () -> get("/api/v1/topology/summary"));
        calls.put("GET /api/v1/nimbus/summary", () -> get("/api/v1/nimbus/summary"));
        calls.put("GET /api/v1/supervisor/summary", () -> get("/api/v1/supervisor/summary"));
        calls.put("GET /api/v1/cluster/configuration", () -> get("/api/v1/cluster/configuration"));
        calls.put("GET /api/v1/topology/:id", () -> get("/api/v1/topology/" + id));
        calls.put("GET /api/v1/topology/:id?window=600", () -> get("/api/v1/topology/" + id + "?window=600"));
        calls.put("GET /api/v1/topology/:id/graph", () -> get("/api/v1/topology/" + id + "/graph"));
        calls.put("GET /api/v1/topology/:id/runtime", () -> get("/api/v1/topology/" + id + "/runtime"));
        calls.put("GET /api/v1/topology/:id/tuples", () -> get("/api/v1/topology/" + id + "/tuples"));
        calls.put("GET /api/v1/topology/:id/component/:c", () -> get("/api/v1/topology/" + id + "/component/"
            + component));
        calls.put("GET /index.html", () -> get("/index.html"));
        calls.put("GET /topology.html", () -> get("/topology.html?id=" + id));
        calls.put("Thrift getClusterInfo", () -> nimbus().getClusterInfo().get_topologies_size());
        calls.put("Thrift getTopologyInfo", () -> nimbus().getTopologyInfo(id).get_executors_size());
        return calls;
    }

    /**
     * The index page's topology list at each refresh, as the server's own {@code index.js} asks it: the topology
     * summary, and, from a build whose page asks it (before 2026-11-28), every listed topology's page besides.
     */
    long indexRefresh() throws Exception {
        String summary = body("/api/v1/topology/summary");
        long bytes = summary.length();
        if (pagePerTopology == null) {
            pagePerTopology = body("/index.js").contains("get('/api/v1/topology/' + encodeURIComponent(t.id))");
        }
        if (pagePerTopology) {
            for (String id : ids(summary)) {
                bytes += get("/api/v1/topology/" + id);
            }
        }
        return bytes;
    }

    /** The ids of the topologies a {@code topology/summary} answer lists. */
    private static List<String> ids(String summary) {
        List<String> ids = new ArrayList<>();
        Matcher m = ID.matcher(summary);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    long get(String path) throws Exception {
        return body(path).length();
    }

    private String body(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.web() + path))
            .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** Trees a topology's spouts acked since it started (Storm's all-time window), through Thrift. */
    long acked(String id) throws Exception {
        TopologyInfo info = nimbus().getTopologyInfo(id);
        long sum = 0;
        for (var e : info.get_executors()) {
            var stats = e.get_stats();
            if (stats != null && stats.get_specific().is_set_spout()) {
                Map<String, Long> all = stats.get_specific().get_spout().get_acked().get(":all-time");
                if (all != null) {
                    sum += all.values().stream().mapToLong(Long::longValue).sum();
                }
            }
        }
        return sum;
    }

    org.apache.storm.generated.Nimbus.Iface nimbus() throws Exception {
        if (nimbus == null) {
            Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
            conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
            conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
            nimbus = new NimbusClient(conf, "127.0.0.1", server.thriftPort(), 60_000);
        }
        return nimbus.getClient();
    }

    @Override
    public void close() {
        if (nimbus != null) {
            nimbus.close();
        }
    }
}
