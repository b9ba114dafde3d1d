package io.microburst.it.operatorload;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.generated.TopologySummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operator load: one {@code microburst server} process with twenty storm-starter-like topologies (word counts and
 * exclamation chains; {@code microburst.load.fast} of them at full speed, the others paced), first the cost of each
 * operator request alone ({@link EndpointCosts}), then quiet windows (no request at all) alternating with hammered ones
 * ({@code microburst.load.clients} client threads, each a sweep of the REST API, the pages' requests, {@code /metrics}
 * and Thrift every {@code microburst.load.interval.millis}), and per full-speed topology its trees acked per second
 * hammered over quiet. With {@code -Dmicroburst.load.baseline.classpath=CP} the passes alternate between a server on
 * that class path (an older build) and one on this build's ({@code microburst.load.passes} of each), so that a machine
 * shared with other work drifts alike for both. Report: standard output and {@code target/operator-load-report.txt}.
 * The numbers are for the performance notes; the test fails only on a failed request or a window with nothing acked.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class OperatorLoadTest {
    @TempDir
    Path dir;

    @Test
    void measuresThroughputQuietAndHammered() throws Exception {
        int passes = Integer.getInteger("microburst.load.passes", 1);
        String baseline = System.getProperty("microburst.load.baseline.classpath", "");
        StringBuilder report = new StringBuilder();
        Path jar = topologyJar();
        for (int pass = 1; pass <= passes; pass++) {
            if (!baseline.isBlank()) {
                report.append(pass("baseline", baseline, pass, jar));
            }
            report.append(pass("this build", LoadServer.ownClassPath(), pass, jar));
        }
        System.out.print(report);
        Files.writeString(Path.of("target", "operator-load-report.txt"), report.toString(), StandardCharsets.UTF_8);
    }

    private String pass(String build, String classPath, int pass, Path jar) throws Exception {
        int fast = Integer.getInteger("microburst.load.fast", 4);
        int paced = Integer.getInteger("microburst.load.paced", 16);
        int rounds = Integer.getInteger("microburst.load.rounds", 4);
        int seconds = Integer.getInteger("microburst.load.window.seconds", 15);
        int clients = Integer.getInteger("microburst.load.clients", 3);
        long interval = Long.getLong("microburst.load.interval.millis", 1000);
        Path work = Files.createDirectories(dir.resolve("pass-" + pass + "-" + build.replace(' ', '-')));
        StringBuilder out = new StringBuilder(String.format("LOAD pass %d, %s: %d full-speed and %d paced topologies,"
            + " %d clients each sweeping every %d ms, %d rounds of %d s quiet + %d s hammered%n", pass, build, fast,
            paced, clients, interval, rounds, seconds, seconds));
        try (LoadServer server = LoadServer.start(work, classPath, build.replace(' ', '-'));
             OperatorCalls calls = new OperatorCalls(server)) {
            Map<String, String> components = new LinkedHashMap<>();
            for (int i = 0; i < fast + paced; i++) {
                boolean exclamation = i % 2 == 1;
                String name = (i < fast ? "fast-" : "paced-") + i;
                submit(server, jar, name, LoadTopologies.build(exclamation, i < fast ? 0 : 100), i >= fast);
                components.put(name, exclamation ? "exclaim1" : "split");
            }
            Map<String, String> ids = awaitIds(calls, fast + paced);
            List<String> fastIds = new ArrayList<>();
            Map<String, String> componentById = new HashMap<>();
            ids.forEach((name, id) -> {
                componentById.put(id, components.get(name));
                if (name.startsWith("fast-")) {
                    fastIds.add(id);
                }
            });
            out.append(EndpointCosts.measure(server, calls, fastIds.get(0), componentById.get(fastIds.get(0))));
            for (String id : fastIds) {
                calls.nimbus().activate(ids.entrySet().stream().filter(e -> e.getValue().equals(id)).findFirst()
                    .orElseThrow().getKey());
            }
            List<Hammer> hammers = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                Hammer h = new Hammer(new OperatorCalls(server), new ArrayList<>(ids.values()), componentById, interval,
                    pass * 31L + c);
                hammers.add(h);
                Thread t = new Thread(h, "operator-" + c);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            Windows windows = new Windows(server, calls, fastIds);
            try {
                windows.measure(false, 2 * seconds); // warm-up: the JIT, the queues, the placement
                windows.clear();
                for (int r = 0; r < rounds; r++) {
                    windows.measure(false, seconds);
                    hammers.forEach(h -> h.on = true);
                    try {
                        windows.measure(true, seconds);
                    } finally {
                        hammers.forEach(h -> h.on = false);
                    }
                }
            } finally {
                for (int c = 0; c < clients; c++) {
                    hammers.get(c).running = false;
                    threads.get(c).join();
                    hammers.get(c).close();
                }
            }
            long sweeps = hammers.stream().mapToLong(h -> h.sweeps.get()).sum();
            long requests = hammers.stream().mapToLong(h -> h.calls.get()).sum();
            out.append(windows.report(ids));
            out.append(String.format("LOAD hammered windows: %d sweeps, %d requests (%.1f requests/s)%n", sweeps,
                requests, requests / (double) (rounds * seconds)));
            List<String> failures = new ArrayList<>();
            hammers.forEach(h -> failures.addAll(h.failures()));
            assertTrue(failures.isEmpty(), "operator requests failed: " + failures);
            assertTrue(windows.everyWindowAcked(), "a window with nothing acked: " + out);
        }
        System.out.print(out);
        return out.toString();
    }

    private static void submit(LoadServer server, Path jar, String name,
                               org.apache.storm.generated.StormTopology topology, boolean active) throws Exception {
        Map<String, Object> conf = new HashMap<>(org.apache.storm.utils.Utils.readStormConfig());
        conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        conf.putAll(LoadTopologies.conf());
        String before = System.getProperty("storm.jar");
        System.setProperty("storm.jar", jar.toString()); // what StormSubmitter uploads
        try {
            StormSubmitter.submitTopology(name, conf, topology, new SubmitOptions(active
                ? TopologyInitialStatus.ACTIVE : TopologyInitialStatus.INACTIVE), null);
        } finally {
            if (before == null) {
                System.clearProperty("storm.jar");
            } else {
                System.setProperty("storm.jar", before);
            }
        }
    }

    /** Waits until the server lists {@code count} topologies; their ids by name. */
    private static Map<String, String> awaitIds(OperatorCalls calls, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            Map<String, String> ids = new LinkedHashMap<>();
            for (TopologySummary t : calls.nimbus().getClusterInfo().get_topologies()) {
                ids.put(t.get_name(), t.get_id());
            }
            if (ids.size() == count || System.nanoTime() > deadline) {
                return ids;
            }
            Thread.sleep(200); // polls the server's list
        }
    }

    /** This package's classes, as a user's build packs a topology jar. */
    private Path topologyJar() throws Exception {
        Path classes = Path.of(LoadTopologies.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String pkg = LoadTopologies.class.getPackageName().replace('.', '/');
        Path jar = dir.resolve("load.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file);
             Stream<Path> files = Files.list(classes.resolve(pkg))) {
            for (Path f : files.toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }
}
