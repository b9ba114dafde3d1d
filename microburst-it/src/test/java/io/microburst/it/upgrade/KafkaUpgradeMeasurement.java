package io.microburst.it.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import io.microburst.it.compat.LocalModes;
import io.microburst.it.compat.StormExamplesParityTest;
import io.microburst.it.durable.KafkaBroker;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import io.microburst.server.web.WebServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures upgrades on the server's own path, not a timed test (behind {@code -Dmicroburst.long=true}): a
 * {@code microburst server} in this JVM runs {@link KafkaUpgradeSource}'s counting topology (storm-kafka-client's
 * KafkaSpout on a real KRaft broker, a stateful bolt on the embedded RocksDB store) while a producer writes records at a
 * steady rate; it is upgraded 20 times in a row through the web port's upgrade (the jar as the body, its main run in a
 * child JVM as {@code storm jar} runs it), alternating two jars built here from source (the second changes the bolt's
 * logic and its executors). Reports each upgrade's output gap (the old version's spout's last ack to the new version's
 * first), records lost, counted twice and replayed, keys counted below their input, and after the 20 upgrades whether
 * every old version's class loader was collected, the heap after GC and the live threads, into
 * {@code target/kafka-upgrade.txt}. {@code -Dmicroburst.upgrade.count=N}, {@code -Dmicroburst.upgrade.rate=RECORDS/S}.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class KafkaUpgradeMeasurement {
    private static final int UPGRADES = Integer.getInteger("microburst.upgrade.count", 20);
    private static final int RATE = Integer.getInteger("microburst.upgrade.rate", 500);
    private static final int KEYS = 100;
    private static final String TOPIC = "upgrade-input";
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(300);
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> lines = new ArrayList<>();

    @TempDir
    Path dir;

    /** When each of {@code version}'s start steps and its first ack came, in ms after {@code since}. */
    private static String steps(long since, UpgradeProbe.Version version) {
        StringBuilder out = new StringBuilder();
        for (UpgradeProbe.Mark mark : UpgradeProbe.Mark.values()) {
            long at = version.marks.get(mark.ordinal());
            out.append(mark.name().toLowerCase(Locale.ROOT)).append(' ')
                .append(at == 0 ? "-" : Long.toString(ms(at - since))).append(" ms, ");
        }
        return out.append("first ack ").append(ms(version.first.get() - since)).append(" ms").toString();
    }

    @Test
    void twentyUpgradesOfAKafkaCountingTopology() throws Exception {
        lines.add("load average at the start: " + loadAverage());
        Path jarA = jar("a");
        Path jarB = jar("b");
        String state = dir.resolve("state").toString();
        List<Long> gaps = new ArrayList<>();
        List<Long> recorded = new ArrayList<>();
        List<WeakReference<ClassLoader>> oldLoaders = new ArrayList<>();
        long[] heap = new long[2];
        int[] threads = new int[2];
        SteadyProducer producer;
        long sent;
        String lastId;
        try (KafkaBroker broker = KafkaBroker.start(Files.createDirectories(dir.resolve("kafka")));
             MicroburstServer server = MicroburstServer.start(Map.of(ServerConfig.DIR, dir.resolve("data").toString(),
                 Config.NIMBUS_THRIFT_PORT, 0, ServerConfig.UI_PORT, 0))) {
            broker.createTopic(TOPIC, UpgradeProbe.PARTITIONS);
            List<String> args = List.of(broker.bootstrap(), TOPIC, state);
            producer = new SteadyProducer(broker.producerProperties(), TOPIC, RATE, KEYS);
            try (producer) {
                producer.start();
                submit(server, jarA, args);
                lastId = server.cluster().getTopologySummaryByName(KafkaUpgradeSource.NAME).get_id();
                String first = lastId;
                await(() -> UpgradeProbe.acks(first) >= RATE, "the first version's acks");
                String token = Files.readString(dir.resolve("data").resolve("ui-token")).trim();
                for (int i = 0; i < UPGRADES; i++) {
                    long start = System.nanoTime();
                    Map<?, ?> answer = upgrade(server, token, lastId, i % 2 == 0 ? jarB : jarA, args);
                    long took = System.nanoTime() - start;
                    String previous = (String) answer.get("previousTopologyId");
                    String next = (String) answer.get("topologyId");
                    assertEquals(lastId, previous, answer.toString());
                    await(() -> UpgradeProbe.acks(next) >= RATE / 2, "acks of version " + (i + 2));
                    long gap = UpgradeProbe.VERSIONS.get(next).first.get() - UpgradeProbe.VERSIONS.get(previous).last
                        .get();
                    gaps.add(gap);
                    recorded.add(((Number) answer.get("outputGapMs")).longValue());
                    oldLoaders.add(UpgradeProbe.LOADERS.get(previous));
                    lines.add("upgrade " + (i + 1) + " (to " + (i % 2 == 0 ? "b" : "a") + "): output gap " + ms(gap)
                        + " ms (recorded " + answer.get("outputGapMs") + " ms, replayed " + answer.get("replayed")
                        + "); the request took " + ms(took) + " ms; old version's acks "
                        + UpgradeProbe.acks(previous) + "; after the old version's last ack, the new one's "
                        + steps(UpgradeProbe.VERSIONS.get(previous).last.get(), UpgradeProbe.VERSIONS.get(next)));
                    lastId = next;
                    if (i == 0 || i == UPGRADES - 1) {
                        heap[i == 0 ? 0 : 1] = heapAfterGc();
                        threads[i == 0 ? 0 : 1] = ManagementFactory.getThreadMXBean().getThreadCount();
                        lines.add("threads after upgrade " + (i + 1) + ", by name: " + threadNames());
                    }
                }
                producer.stop();
                sent = producer.sent();
                await(() -> unacked(producer, sent) == 0, "every produced record acked");
            }
            long left = uncollected(oldLoaders);
            if (left > 0) {
                describeLeft(oldLoaders);
            }
            lines.add("old versions' class loaders still reachable after GC: " + left + " of "
                + oldLoaders.size() + "; topology class loaders in the heap histogram: " + histogramCount(
                "io.microburst.server.TopologyClassLoader") + "; child processes alive: "
                + ProcessHandle.current().children().filter(ProcessHandle::isAlive).count() + " (the Kafka broker is one)");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            server.nimbus().killTopologyWithOpts(KafkaUpgradeSource.NAME, now);
        }
        StateLedger ledger = StateLedger.read(state, producer, sent);
        long deliveredTwice = 0;
        long ackedTwice = 0;
        for (int n = 0; n < sent; n++) {
            deliveredTwice += UpgradeProbe.DELIVERIES.get(n) > 1 ? 1 : 0;
            int p = producer.partitionOf.get(n);
            if (p > 0 && UpgradeProbe.ACKS[p - 1].get((int) producer.offsetOf.get(n)) > 1) {
                ackedTwice++;
            }
        }
        List<Long> sorted = new ArrayList<>(gaps);
        Collections.sort(sorted);
        List<Long> sortedRecorded = new ArrayList<>(recorded);
        Collections.sort(sortedRecorded);
        lines.add("records sent " + sent + ", produced (acknowledged by the broker) " + ledger.produced + ", failed "
            + producer.failed() + "; lost " + ledger.lost + "; counted more than once in the state "
            + ledger.countedTwice + "; executed more than once " + deliveredTwice + "; acked more than once "
            + ackedTwice);
        lines.add("keys " + KEYS + ": counted below their input " + ledger.keysBelow + ", above " + ledger.keysAbove
            + "; state namespaces with entries " + ledger.namespaces + "; records run by the second version's logic "
            + UpgradeProbe.SECOND_LOGIC.get());
        lines.add("output gap over " + gaps.size() + " upgrades: median " + ms(sorted.get(sorted.size() / 2))
            + " ms, max " + ms(sorted.get(sorted.size() - 1)) + " ms; recorded by the server: median "
            + sortedRecorded.get(sortedRecorded.size() / 2) + " ms, max " + sortedRecorded.get(sortedRecorded.size() - 1)
            + " ms");
        lines.add("heap after GC after the first upgrade " + heap[0] / 1024 + " KiB, after the last " + heap[1] / 1024
            + " KiB; live threads " + threads[0] + " then " + threads[1]);
        lines.add("load average at the end: " + loadAverage());
        lines.forEach(System.out::println);
        Files.write(Path.of("target", "kafka-upgrade.txt"), lines);
        assertEquals(0, ledger.lost, "records lost");
        assertEquals(0, ledger.keysBelow, "keys counted below their input");
        assertEquals(0, uncollected(oldLoaders), "old versions' class loaders still reachable");
        assertTrue(UpgradeProbe.SECOND_LOGIC.get() > 0, "the second version's bolt ran");
    }

    private Path jar(String version) throws Exception {
        Path src = dir.resolve("src-" + version);
        for (Map.Entry<String, String> source : KafkaUpgradeSource.sources(version).entrySet()) {
            Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
        }
        Map<String, String> notBuilt = new HashMap<>();
        Path classes = StormExamplesParityTest.compile(src, dir.resolve("classes-" + version), notBuilt);
        assertTrue(notBuilt.isEmpty(), "version " + version + " compiles: " + notBuilt);
        return LocalModes.jar(dir.resolve("counting-" + version + ".jar"), List.of(classes), Map.of());
    }

    /** The first version, as {@code microburst submit} runs it. */
    private static void submit(MicroburstServer server, Path jar, List<String> args) {
        List<String> command = new ArrayList<>(List.of("submit", "-c", "nimbus.seeds=[\"127.0.0.1\"]", "-c",
            "nimbus.thrift.port=" + server.thriftPort(), jar.toString(), KafkaUpgradeSource.MAIN_CLASS));
        command.addAll(args);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(command.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
    }

    /** {@code POST /api/v1/topology/ID/upgrade} with the jar as the body and the default wait; answers the JSON. */
    private Map<?, ?> upgrade(MicroburstServer server, String token, String id, Path jar, List<String> args)
            throws Exception {
        StringBuilder query = new StringBuilder("main=" + KafkaUpgradeSource.MAIN_CLASS);
        for (String arg : args) {
            query.append("&args=").append(URLEncoder.encode(arg, StandardCharsets.UTF_8));
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.uiPort()
                + "/api/v1/topology/" + id + "/upgrade?" + query)).timeout(Duration.ofMinutes(10))
            .header("Content-Type", "application/java-archive").header(WebServer.TOKEN_HEADER, token)
            .POST(HttpRequest.BodyPublishers.ofFile(jar)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return (Map<?, ?>) JSONValue.parse(response.body());
    }

    private static long unacked(SteadyProducer producer, long sent) {
        long missing = 0;
        for (int n = 0; n < sent; n++) {
            int p = producer.partitionOf.get(n);
            if (p > 0 && UpgradeProbe.ACKS[p - 1].get((int) producer.offsetOf.get(n)) == 0) {
                missing++;
            }
        }
        return missing;
    }

    /** Collects until every reference is cleared or two minutes passed; answers how many are left. */
    private static long uncollected(List<WeakReference<ClassLoader>> loaders) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (true) {
            long left = loaders.stream().filter(r -> r == null || r.get() != null).count();
            if (left == 0 || System.nanoTime() > deadline) {
                return left;
            }
            System.gc();
            Thread.sleep(100);
        }
    }

    /** Which old loaders are left, the threads whose context loader they are, and a heap dump to look at. */
    private void describeLeft(List<WeakReference<ClassLoader>> loaders) throws Exception {
        for (int i = 0; i < loaders.size(); i++) {
            ClassLoader loader = loaders.get(i) == null ? null : loaders.get(i).get();
            if (loader != null) {
                List<String> threads = new ArrayList<>();
                for (Thread t : Thread.getAllStackTraces().keySet()) {
                    if (t.getContextClassLoader() == loader) {
                        threads.add(t.getName());
                    }
                }
                lines.add("left: the loader of version " + (i + 1) + " (" + loader + "); context loader of threads "
                    + threads);
            }
        }
        Path dump = Path.of("target", "kafka-upgrade-heap.hprof").toAbsolutePath();
        Files.deleteIfExists(dump);
        ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class).dumpHeap(
            dump.toString(), true);
    }

    /** Instances of {@code className} in this JVM's heap histogram (live objects only, taken after a full GC). */
    private static String histogramCount(String className) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process process = new ProcessBuilder(jcmd.toString(), Long.toString(ProcessHandle.current().pid()),
            "GC.class_histogram").redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        process.waitFor();
        return out.lines().filter(l -> l.trim().endsWith(" " + className)).map(l -> l.trim().split("\\s+")[1])
            .findFirst().orElse("0");
    }

    /** Live threads counted by name, digits taken out (pools' numbered threads under one name). */
    private static Map<String, Integer> threadNames() {
        Map<String, Integer> names = new java.util.TreeMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            names.merge(t.getName().replaceAll("[0-9]+", "#"), 1, Integer::sum);
        }
        return names;
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String loadAverage() throws Exception {
        Path proc = Path.of("/proc/loadavg");
        return Files.exists(proc) ? Files.readString(proc).trim() : "unknown";
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5);
        }
    }
}
