package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.server.MicroburstServer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics}: a clean scrape in Prometheus' text format with the JVM's and process' metrics from the Prometheus
 * client library, {@code microburst_build_info}, every duration in seconds, and the topology's status as a state set
 * whose series stay the same when the status changes.
 */
@Timeout(120)
class PrometheusMetricsTest {
    @TempDir
    Path dir;

    @Test
    void scrapeParsesWithJvmProcessBuildInfoSecondsAndStatusSeries() throws Exception {
        try (MicroburstServer server = WebTestServer.start(dir)) {
            String id = WebTestServer.submit(server, "scraped");
            List<PrometheusText.Sample> active = scrape(server);
            server.cluster().deactivate("scraped");
            WebTestServer.awaitTrue(() -> status(server, "scraped").equals("INACTIVE"));
            // scrapes within a second share one answer, so the change shows in the next second's
            List<List<PrometheusText.Sample>> last = new java.util.ArrayList<>(List.of(active));
            WebTestServer.awaitTrue(() -> {
                last.set(0, scrapeOrFail(server));
                return states(last.get(0)).get("INACTIVE") == 1.0;
            });
            List<PrometheusText.Sample> inactive = last.get(0);

            Set<String> names = active.stream().map(PrometheusText.Sample::name).collect(Collectors.toSet());
            for (String jvm : List.of("jvm_memory_used_bytes", "jvm_threads_current", "jvm_gc_collection_seconds_count",
                "process_cpu_seconds_total", "process_start_time_seconds", "jvm_runtime_info")) {
                assertTrue(names.contains(jvm), jvm + " missing from " + names);
            }
            PrometheusText.Sample build = active.stream().filter(s -> s.name().equals("microburst_build_info"))
                .findFirst().orElseThrow();
            assertEquals(1.0, build.value());
            assertTrue(build.labels().get("version").matches("\\d+\\.\\d+.*"), build.toString());
            assertEquals("2.8.3", build.labels().get("storm_version"));
            assertTrue(names.stream().noneMatch(n -> n.endsWith("_ms")), "a millisecond metric: " + names);
            assertTrue(names.contains("microburst_execute_latency_average_seconds"), names.toString());
            assertTrue(active.stream().filter(s -> s.name().startsWith("microburst_topology_")
                && !s.name().equals("microburst_topology_status")).noneMatch(s -> s.labels().containsKey("status")));

            assertEquals(Map.of("ACTIVE", 1.0, "INACTIVE", 0.0, "REBALANCING", 0.0, "KILLED", 0.0), states(active));
            assertEquals(Map.of("ACTIVE", 0.0, "INACTIVE", 1.0, "REBALANCING", 0.0, "KILLED", 0.0), states(inactive));
            assertFalse(id.isEmpty());
        }
    }

    @Test
    void theReaderRefusesWhatIsNotTheFormat() {
        assertThrows(AssertionError.class, () -> PrometheusText.parse("a_total 1\n"));
        assertThrows(AssertionError.class, () -> PrometheusText.parse("# TYPE a counter\na_total{x=\"1\" 1\n"));
        assertThrows(AssertionError.class, () -> PrometheusText.parse("# TYPE a gauge\na 1\na 2\n"));
        assertEquals(1, PrometheusText.parse("# TYPE a gauge\na{x=\"q\\\"\"} 1\n").size());
    }

    private static Map<String, Double> states(List<PrometheusText.Sample> samples) {
        return samples.stream().filter(s -> s.name().equals("microburst_topology_status")
                && "scraped".equals(s.labels().get("topology")))
            .collect(Collectors.toMap(s -> s.labels().get("microburst_topology_status"), PrometheusText.Sample::value));
    }

    private static String status(MicroburstServer server, String name) {
        try {
            return WebTestServer.status(server, name);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<PrometheusText.Sample> scrapeOrFail(MicroburstServer server) {
        try {
            return scrape(server);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<PrometheusText.Sample> scrape(MicroburstServer server) throws Exception {
        RawHttp.Answer answer = RawHttp.send(server.uiPort(), "GET", "/metrics", "127.0.0.1:" + server.uiPort(),
            Map.of(), null);
        assertEquals(200, answer.status(), answer.body());
        return PrometheusText.parse(answer.body());
    }
}
