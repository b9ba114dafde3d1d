package io.microburst.it.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.durable.KafkaBroker;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.apache.storm.generated.TopologySummary;
import java.util.stream.IntStream;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The server soak: one {@code microburst server} process holding twenty topologies of five kinds (see
 * {@link SoakTopologies}), four of them counting a Kafka broker's records into the embedded RocksDB store, while
 * operators submit, rebalance, deactivate, activate and kill through Thrift and the REST API ({@link SoakOperators}),
 * the pages, the REST API and {@code /metrics} are scraped every second ({@link SoakScraper}), and at random times the
 * server gets {@code kill -9} and is started again on the same folder. After each restart every topology must be back
 * in its last status; at the end every record the broker acknowledged must be counted in committed state (lost = 0,
 * duplicates reported) and the server's threads, heap after GC, descriptors and data folder must be flat from the
 * first cycle to the last. Before the faults, the throughput of two full-speed topologies is measured quiet and while
 * the operators hammer the API ({@link ThroughputPhases}).
 *
 * <p>Long: {@code -Dmicroburst.long=true}; {@code -Dmicroburst.soak.minutes=30} (default 30),
 * {@code -Dmicroburst.soak.kills=10} (default 10), {@code -Dmicroburst.soak.seed=...} to replay the printed seed's
 * operations and kill times (first run), {@code -Dmicroburst.soak.runs=5} for runs in a row,
 * {@code -Dmicroburst.soak.phase.seconds=10} for each throughput phase (0 skips the phases). The report goes to standard output and
 * {@code target/server-soak-report-RUN.txt}.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class ServerSoakTest {
    private static final int RECORDS_PER_SECOND_PER_TOPIC = 50;
    private static final long RESTORE_SECONDS = 180;

    @TempDir
    Path dir;

    /** As many runs as {@code -Dmicroburst.soak.runs} asks (default 1), each with a seed of its own. */
    static IntStream runs() {
        return IntStream.rangeClosed(1, Integer.getInteger("microburst.soak.runs", 1));
    }

    @ParameterizedTest(name = "run {0}")
    @MethodSource("runs")
    void survivesKillsWithNoAcknowledgedRecordLostAndNothingGrowing(int run) throws Exception {
        double minutes = Double.parseDouble(System.getProperty("microburst.soak.minutes", "30"));
        int kills = Integer.getInteger("microburst.soak.kills", 10);
        long seed = run == 1 ? Long.getLong("microburst.soak.seed", System.nanoTime()) : System.nanoTime();
        int phaseSeconds = Integer.getInteger("microburst.soak.phase.seconds", 10);
        System.out.println("SOAK run " + run + ", seed " + seed + " (replay: -Dmicroburst.soak.seed=" + seed + "), " + minutes
            + " min, " + kills + " server kills");
        Random random = new Random(seed);
        StringBuilder report = new StringBuilder();
        try (KafkaBroker broker = KafkaBroker.start(Files.createDirectories(dir.resolve("kafka")));
             SoakServer server = new SoakServer(dir.resolve("data"), Files.createDirectories(dir.resolve("work")))) {
            KafkaLedger ledger = new KafkaLedger(broker, RECORDS_PER_SECOND_PER_TOPIC);
            ledger.createTopics();
            SoakTopologies topologies = new SoakTopologies(dir.resolve("state"), dir.resolve("fast"),
                broker.bootstrap());
            SoakClient client = new SoakClient(server, topologyJar());
            server.start();
            List<String> checked = new ArrayList<>();
            for (SoakTopologies.Planned planned : topologies.all()) {
                client.submit(planned, true);
                checked.add(planned.name());
            }
            SoakOperators operators = new SoakOperators(client, topologies, checked, random.nextLong());
            checked.forEach(name -> operators.expected.put(name, "ACTIVE"));
            awaitStatuses(client, operators, server, "after the first start");
            Thread producer = start(ledger, "soak-producer");
            SoakScraper scraper = new SoakScraper(client, server, random.nextLong());
            Thread scraping = start(scraper, "soak-scraper");
            Thread operating = start(operators, "soak-operators");

            ThroughputPhases throughput = new ThroughputPhases(server, client, operators, scraper, dir.resolve("fast"));
            String rates = "SOAK throughput phases skipped (-Dmicroburst.soak.phase.seconds=0)\n";
            if (phaseSeconds > 0) {
                throughput.run(2, phaseSeconds);
                rates = String.format("SOAK throughput of %d full-speed topologies (trees acked/s): %s;"
                    + " operations so far %d%n", SoakTopologies.FAST, throughput, operators.total());
            }
            System.out.print(rates);
            report.append(rates);

            long startNanos = System.nanoTime();
            long soakNanos = (long) (minutes * 60e9);
            List<ResourceSample> samples = new ArrayList<>();
            List<Long> restoreMillis = new ArrayList<>();
            for (int k = 1; k <= kills; k++) {
                long at = startNanos + soakNanos * k / (kills + 1)
                    + (long) ((random.nextDouble() - 0.5) * soakNanos / (kills + 1) / 2);
                sleepUntil(at);
                operators.lock.lock();
                try {
                    samples.add(ResourceSample.take(k, server, client));
                    System.out.println("SOAK " + samples.get(samples.size() - 1));
                    List<ProcessHandle> children = server.children();
                    server.kill();
                    long restart = System.nanoTime();
                    server.start();
                    awaitStatuses(client, operators, server, "after kill " + k);
                    restoreMillis.add((System.nanoTime() - restart) / 1_000_000);
                    awaitGone(children, k);
                } finally {
                    operators.lock.unlock();
                }
            }
            sleepUntil(startNanos + soakNanos);
            operators.running = false;
            scraper.running = false;
            operating.join();
            scraping.join();
            awaitStatuses(client, operators, server, "at the end");
            List<String> active = operators.expected.entrySet().stream().filter(e -> "ACTIVE".equals(e.getValue()))
                .map(Map.Entry::getKey).sorted().toList();
            String stalled = SoakProgress.awaitAcking(client, active, 90);
            samples.add(ResourceSample.take(kills + 1, server, client));
            System.out.println("SOAK " + samples.get(samples.size() - 1));

            ledger.running = false;
            producer.join();
            assertNull(ledger.failure(), "producing failed: " + ledger.failure());
            for (int i = 0; i < SoakTopologies.KAFKA; i++) {
                String name = SoakTopologies.kafkaName(i);
                if ("INACTIVE".equals(operators.expected.get(name))) {
                    client.nimbus(n -> {
                        n.activate(name);
                        return null;
                    });
                }
            }
            long drainStart = System.nanoTime();
            String missing = ledger.uncommitted();
            while (missing != null && System.nanoTime() - drainStart < TimeUnit.SECONDS.toNanos(600)) {
                Thread.sleep(500);
                missing = ledger.uncommitted();
            }
            long drainMillis = (System.nanoTime() - drainStart) / 1_000_000;
            server.kill(); // what counts is what was committed
            long lost = 0;
            StringBuilder tallies = new StringBuilder();
            for (int i = 0; i < SoakTopologies.KAFKA; i++) {
                KafkaLedger.Tally t = ledger.tally(i, topologies.stateDir(SoakTopologies.kafkaName(i)));
                lost += t.lost();
                tallies.append(String.format("%s: acknowledged %d, lost %d %s, duplicates %d; ",
                    SoakTopologies.kafkaName(i), t.acknowledged(), t.lost(), t.someLost(), t.duplicates()));
            }
            String summary = String.format("SOAK %s min, %d kills, seed %d: %slost %d; every offset committed: %s"
                    + " (drain %d ms); restore after kill (ms): %s; operations %s, failed %s; scrapes served %d,"
                    + " unreachable %d, 5xx %d %s%n",
                minutes, kills, seed, tallies, lost, missing == null ? "yes" : missing, drainMillis, restoreMillis,
                operators.counts(), operators.failures(), scraper.served.get(), scraper.unreachable.get(),
                scraper.serverErrors.get(), scraper.errors());
            StringBuilder all = report.append(summary);
            samples.forEach(s -> all.append("SOAK ").append(s).append('\n'));
            String flat = flatness(samples.get(0), samples.get(samples.size() - 1));
            all.append("SOAK active topologies at the end: ").append(active.size()).append(", ")
                .append(stalled == null ? "every one acking trees" : stalled).append('\n');
            all.append("SOAK flatness, first cycle to last: ").append(flat == null ? "flat" : flat).append('\n');
            System.out.print(summary + "SOAK flatness: " + (flat == null ? "flat" : flat) + "\n");
            Files.writeString(Path.of("target", "server-soak-report-" + run + ".txt"), all.toString(),
                StandardCharsets.UTF_8);

            assertEquals(0, lost, "acknowledged records missing from committed state: " + summary);
            assertNull(stalled, "active topologies that completed nothing at the end: " + stalled);
            assertNull(missing, "not every record was consumed and committed: " + summary);
            assertTrue(operators.failures().isEmpty(), "operations failed: " + operators.failures());
            assertEquals(0, scraper.serverErrors.get(), "5xx answers: " + scraper.errors());
            assertNull(flat, "growth across cycles: " + flat);
            // The target is 0.9 of quiet; on a shared machine quiet phases alone differ by up to 3.5x (see
            // docs/RELIABILITY.md), so only hammered phases under half the slowest quiet one fail the run.
            assertTrue(phaseSeconds == 0 || throughput.hammeredHoldsHalfOfSlowestQuiet(), "throughput while hammered fell under half the"
                + " slowest quiet phase: " + rates);
        }
    }

    /** Null when the last cycle holds no more than the first within the tolerances, else what grew. */
    static String flatness(ResourceSample first, ResourceSample last) {
        List<String> grew = new ArrayList<>();
        if (last.threads() > first.threads() + Math.max(20, first.threads() / 5)) {
            grew.add("threads " + first.threads() + " -> " + last.threads());
        }
        if (last.heapMb() > first.heapMb() * 3 / 2 + 64) {
            grew.add("heap after GC " + first.heapMb() + " -> " + last.heapMb() + " MB");
        }
        if (last.descriptors() > first.descriptors() + Math.max(40, first.descriptors() / 5)) {
            grew.add("descriptors " + first.descriptors() + " -> " + last.descriptors());
        }
        if (last.diskKb() > first.diskKb() + Math.max(2048, first.diskKb() / 5)) {
            grew.add("data folder " + first.diskKb() + " -> " + last.diskKb() + " KB");
        }
        if (last.tmpKb() > first.tmpKb() + Math.max(2048, first.tmpKb() / 5)) {
            grew.add("temporary folder " + first.tmpKb() + " -> " + last.tmpKb() + " KB");
        }
        if (last.children() > first.children()) {
            grew.add("subprocesses " + first.children() + " -> " + last.children());
        }
        return grew.isEmpty() ? null : String.join(", ", grew);
    }

    /** Waits until the server lists exactly the modelled topologies, each in its modelled status. */
    private static void awaitStatuses(SoakClient client, SoakOperators operators, SoakServer server, String when)
        throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RESTORE_SECONDS);
        Map<String, String> seen = new TreeMap<>();
        while (true) {
            seen.clear();
            try {
                for (Map.Entry<String, TopologySummary> t : client.topologies().entrySet()) {
                    seen.put(t.getKey(), t.getValue().get_status());
                }
            } catch (Exception e) {
                seen.put("(unreachable)", e.toString());
            }
            if (seen.equals(new TreeMap<>(operators.expected))) {
                return;
            }
            if (!server.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("topologies not back in their status " + when + ": expected "
                    + new TreeMap<>(operators.expected) + ", listed " + seen + "\n" + tail(server.output()));
            }
            Thread.sleep(200);
        }
    }

    private static void awaitGone(List<ProcessHandle> children, int kill) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (children.stream().anyMatch(ProcessHandle::isAlive)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("subprocesses of the killed server still run after kill " + kill + ": "
                    + children.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " "
                        + p.info().commandLine().orElse("")).toList());
            }
            Thread.sleep(100);
        }
    }

    private static Thread start(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left = nanoTime - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left); // the random kill time drawn from the seed
        }
    }

    private static String tail(String text) {
        return text.length() < 4000 ? text : text.substring(text.length() - 4000);
    }

    /** The soak package's classes and the multi-lang scripts under resources/, as a user's build packs them. */
    private Path topologyJar() throws Exception {
        Path classes = Path.of(SoakComponents.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        String pkg = SoakComponents.class.getPackageName().replace('.', '/');
        Path jar = dir.resolve("soak.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out);
             Stream<Path> files = Files.list(classes.resolve(pkg))) {
            List<Path> entries = new ArrayList<>(files.toList());
            entries.add(classes.resolve("resources/chaos_relay.py"));
            entries.add(classes.resolve("resources/storm.py"));
            for (Path file : entries) {
                jarOut.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, jarOut);
                jarOut.closeEntry();
            }
        }
        return jar;
    }
}
