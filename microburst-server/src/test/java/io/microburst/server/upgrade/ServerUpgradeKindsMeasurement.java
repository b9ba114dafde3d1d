package io.microburst.server.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.cluster.upgrade.UpgradeOptions;
import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.trident.state.map.MapState;
import org.apache.storm.trident.testing.MemoryMapState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures upgrades through the server (behind {@code -Dmicroburst.long=true}, not a timed test): storm-starter's
 * multi-lang word count ({@link WordCountVersions}) and a Trident word count ({@link TridentWordCountVersions}), each
 * submitted over Nimbus and upgraded 20 times to alternating versions with the default wait. Reports per kind the
 * output gap (the old version's last ack to the new one's first: median and max), what was lost, the Python
 * subprocesses of this JVM, the heap after GC and the live threads after the first upgrade and after the last, into
 * {@code target/upgrade-kinds.txt}. storm-starter's {@code splitsentence.py} and Storm's {@code storm.py} come from
 * Storm's source release, which the build unpacks; nothing of Storm's is kept in this project.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class ServerUpgradeKindsMeasurement {
    static final int UPGRADES = Integer.getInteger("microburst.upgrade.count", 20);
    static final Path STORM = Path.of("target", "storm-2.8.3");
    static final List<String> LINES = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path dir;

    @Test
    void multiLangWordCount() throws Exception {
        WordCountVersions.NEXT.set(0);
        WordCountVersions.REPLAY.clear();
        WordCountVersions.emitting = true;
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 500);
        byte[] jar = jar(Map.of("resources/splitsentence.py",
            STORM.resolve("examples/storm-starter/multilang/resources/splitsentence.py"), "resources/storm.py",
            STORM.resolve("storm-multilang/python/src/main/resources/resources/storm.py")));
        measure("storm-starter WordCount (multi-lang)", conf, jar, WordCountVersions::topology, 2_000, () -> {
            WordCountVersions.emitting = false;
            return () -> WordCountVersions.REPLAY.isEmpty()
                && VersionStamps.ACKED.size() == WordCountVersions.NEXT.get();
        }, () -> "sentences emitted " + WordCountVersions.NEXT.get() + ", acked " + VersionStamps.ACKED.size()
            + ", lost " + (WordCountVersions.NEXT.get() - VersionStamps.ACKED.size()));
    }

    @Test
    void tridentWordCount() throws Exception {
        TridentWordCountVersions.NEXT.set(0);
        TridentWordCountVersions.BATCHES.clear();
        TridentWordCountVersions.emitting = true;
        MemoryMapState.Factory state = new MemoryMapState.Factory();
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_TRIDENT_BATCH_EMIT_INTERVAL_MILLIS, 20);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 3);
        measure("Trident word count (persistentAggregate)", conf, jar(Map.of()),
            second -> TridentWordCountVersions.topology(state, second), 20, () -> {
                TridentWordCountVersions.emitting = false;
                return () -> VersionStamps.ACKED.containsAll(TridentWordCountVersions.BATCHES.keySet());
            }, () -> {
                long words = 0;
                long sentences = 0;
                for (List<Integer> batch : TridentWordCountVersions.BATCHES.values()) {
                    for (int id : batch) {
                        sentences++;
                        words += TridentWordCountVersions.sentence(id).split(" ").length;
                    }
                }
                long counted = countedWords(state);
                return "batches acked " + VersionStamps.ACKED.size() + " (" + sentences + " sentences, " + words
                    + " words); counted in the state " + counted + " words; lost " + Math.max(0, words - counted)
                    + ", counted more than once " + Math.max(0, counted - words);
            });
    }

    /**
     * Submits version 1, upgrades {@code UPGRADES} times to alternating versions, each after {@code acksBetween} acks
     * of the version before, then lets the spout stop ({@code stop} returns when all is acked) and reports.
     */
    private void measure(String kind, Map<String, Object> conf, byte[] jar, Function<Boolean, StormTopology> topology,
                         int acksBetween, java.util.function.Supplier<BooleanSupplier> stop,
                         java.util.function.Supplier<String> outcome) throws Exception {
        VersionStamps.reset();
        List<Long> gaps = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        long[] heap = new long[2];
        int[] threads = new int[2];
        long[] python = new long[3];
        String name = "upgraded";
        Map<String, Object> serverConf = Map.of(ServerConfig.DIR, dir.toString(), Config.NIMBUS_THRIFT_PORT, 0,
            ServerConfig.UI_PORT, 0);
        try (MicroburstServer server = MicroburstServer.start(serverConf)) {
            Nimbus.Iface nimbus = server.nimbus();
            nimbus.submitTopology(name, upload(nimbus, jar), JSONValue.toJSONString(conf), topology.apply(false));
            awaitCondition(() -> VersionStamps.ACKED.size() >= acksBetween, "the first version's acks");
            for (int i = 0; i < UPGRADES; i++) {
                if (i == 1) {
                    heap[0] = heapAfterGc();
                    threads[0] = Thread.activeCount();
                    python[0] = pythonChildren();
                }
                Map<String, Object> next = new HashMap<>(conf);
                next.put(UpgradeOptions.UPGRADE, true);
                int before = VersionStamps.ACKED.size();
                nimbus.submitTopology(name, upload(nimbus, jar), JSONValue.toJSONString(next), topology.apply(i % 2 == 0));
                int version = i + 1;
                awaitCondition(() -> VersionStamps.FIRST_ACK.get(version) != 0
                    && VersionStamps.ACKED.size() >= before + acksBetween, "version " + (version + 1) + "'s acks");
                gaps.add(VersionStamps.gapAfter(i));
                String status = nimbus.getTopologySummaryByName(name).get_sched_status();
                lines.add("upgrade " + version + ": output gap " + ms(VersionStamps.gapAfter(i)) + " ms; recorded "
                    + status.substring(status.indexOf("output gap")) + "; python subprocesses " + pythonChildren());
            }
            heap[1] = heapAfterGc();
            threads[1] = Thread.activeCount();
            python[1] = pythonChildren();
            awaitCondition(stop.get(), "everything emitted acked");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            nimbus.killTopologyWithOpts(name, now);
            awaitCondition(() -> pythonChildren() == 0, "no python subprocess after the kill");
        }
        Collections.sort(gaps);
        lines.add(outcome.get());
        lines.add("output gap over " + UPGRADES + " upgrades: median " + ms(gaps.get(gaps.size() / 2)) + " ms, max "
            + ms(gaps.get(gaps.size() - 1)) + " ms");
        lines.add("python subprocesses after the first upgrade " + python[0] + ", after the last " + python[1]
            + ", after the kill 0; heap after GC " + heap[0] / 1024 + " KiB then " + heap[1] / 1024
            + " KiB; live threads " + threads[0] + " then " + threads[1]);
        lines.add(0, "== " + kind);
        lines.forEach(System.out::println);
        LINES.addAll(lines);
        Files.write(Path.of("target", "upgrade-kinds.txt"), LINES);
        assertEquals(0, lostFrom(lines.get(lines.size() - 3)), "lost: " + lines.get(lines.size() - 3));
    }

    private static long lostFrom(String outcome) {
        String tail = outcome.substring(outcome.indexOf("lost ") + 5);
        int end = tail.indexOf(',');
        return Long.parseLong(end < 0 ? tail.trim() : tail.substring(0, end).trim());
    }

    /** The words counted in the Trident state: the sum of every word's count over both partitions. */
    @SuppressWarnings("unchecked")
    private static long countedWords(MemoryMapState.Factory state) {
        List<List<Object>> keys = new ArrayList<>();
        for (String sentence : WordCountVersions.SENTENCES) {
            for (String word : sentence.split(" ")) {
                keys.add(List.of(word));
                keys.add(List.of(word.toLowerCase(java.util.Locale.ROOT)));
            }
        }
        List<List<Object>> unique = new ArrayList<>(new java.util.LinkedHashSet<>(keys));
        long total = 0;
        for (int partition = 0; partition < 2; partition++) {
            MapState<Object> map = (MapState<Object>) state.makeState(Map.of(), null, partition, 2);
            for (Object count : map.multiGet(unique)) {
                total += count instanceof Number n ? n.longValue() : 0;
            }
        }
        return total;
    }

    static long pythonChildren() {
        return ProcessHandle.current().descendants()
            .filter(p -> p.isAlive() && p.info().command().orElse("").contains("python")).count();
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + " (acked " + VersionStamps.ACKED.size()
                    + ")");
            }
            Thread.sleep(2);
        }
    }

    private static byte[] jar(Map<String, Path> entries) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(bytes)) {
            if (!entries.isEmpty()) {
                out.putNextEntry(new JarEntry("resources/")); // the folder the server copies to the code directory
                out.closeEntry();
            }
            for (Map.Entry<String, Path> e : entries.entrySet()) {
                out.putNextEntry(new JarEntry(e.getKey()));
                out.write(Files.readAllBytes(e.getValue()));
                out.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static String upload(Nimbus.Iface nimbus, byte[] jar) throws Exception {
        String location = nimbus.beginFileUpload();
        nimbus.uploadChunk(location, ByteBuffer.wrap(jar));
        nimbus.finishFileUpload(location);
        return location;
    }
}
