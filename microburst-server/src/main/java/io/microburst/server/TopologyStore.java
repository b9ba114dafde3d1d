package io.microburst.server;

import io.microburst.cluster.upgrade.UpgradeHistory;
import io.microburst.runtime.task.EventSampling;
import io.microburst.server.web.DebugSampling;
import io.microburst.server.web.UpgradeList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.TopologyInitialStatus;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's memory across restarts, as Nimbus keeps its topologies in ZooKeeper and its blob store: one folder per
 * submitted topology under {@code DIR/topologies/NAME/} holding the jar, the submitted configuration (JSON), the
 * topology (Thrift binary), its status (ACTIVE or INACTIVE) and, once rebalanced, its executor counts
 * ({@code executors.json}: component to count, as the last rebalances left them), and once set, its debug sampling
 * ({@code debug.json}: component, or "" for the whole topology, to {@code enable} and {@code samplingPct}), and once
 * upgraded, its upgrades ({@code upgrades.json}, as {@link UpgradeList} writes them). Every file is written to a temporary name and moved
 * into place atomically, so a process killed at any point leaves either the old or the new version; a folder without
 * its {@code status} file was never completely saved and is ignored.
 *
 * <p>Thread-safe for different topologies; calls about one topology are serialised by the caller.
 */
final class TopologyStore implements DebugSampling.Saved {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyStore.class);
    private static final String JAR = "topology.jar";
    private static final String CONF = "conf.json";
    private static final String TOPOLOGY = "topology.thrift";
    private static final String STATUS = "status";
    private static final String EXECUTORS = "executors.json";
    private static final String DEBUG = "debug.json";
    private static final String UPGRADES = "upgrades.json";

    private final Path dir;

    TopologyStore(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    /**
     * One stored topology.
     *
     * @param executors executor counts set by rebalances since submission, by component (empty when none)
     */
    record Stored(String name, Path jar, Map<String, Object> conf, StormTopology topology, TopologyInitialStatus status,
                  Map<String, Integer> executors) {
    }

    /**
     * Saves a new topology, taking over {@code uploadedJar} (moved in); the status file comes last and makes it whole.
     */
    Stored save(String name, Path uploadedJar, Map<String, Object> conf, StormTopology topology,
                TopologyInitialStatus status) throws IOException {
        Path folder = folder(name);
        deleteRecursively(folder);
        Files.createDirectories(folder);
        Files.move(uploadedJar, folder.resolve(JAR), StandardCopyOption.REPLACE_EXISTING);
        writeAtomically(folder.resolve(CONF), JSONValue.toJSONString(conf).getBytes(StandardCharsets.UTF_8));
        writeAtomically(folder.resolve(TOPOLOGY), Utils.thriftSerialize(topology));
        writeAtomically(folder.resolve(STATUS), status.name().getBytes(StandardCharsets.UTF_8));
        return new Stored(name, folder.resolve(JAR), conf, topology, status, Map.of());
    }

    void setStatus(String name, TopologyInitialStatus status) throws IOException {
        Path folder = folder(name);
        if (Files.isDirectory(folder)) {
            writeAtomically(folder.resolve(STATUS), status.name().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Keeps the executor counts of a rebalance, over those of earlier ones. */
    void addExecutorCounts(String name, Map<String, Integer> counts) throws IOException {
        Path folder = folder(name);
        if (!Files.isDirectory(folder) || counts.isEmpty()) {
            return;
        }
        Map<String, Integer> all = new TreeMap<>(executors(folder));
        all.putAll(counts);
        writeAtomically(folder.resolve(EXECUTORS), JSONValue.toJSONString(all).getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, Integer> executors(Path folder) throws IOException {
        Path file = folder.resolve(EXECUTORS);
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        Object parsed = JSONValue.parse(Files.readString(file, StandardCharsets.UTF_8));
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IOException(EXECUTORS + " is not a JSON object");
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getValue() instanceof Number n)) {
                throw new IOException(EXECUTORS + ": the count of '" + e.getKey() + "' is not a number");
            }
            counts.put(String.valueOf(e.getKey()), n.intValue());
        }
        return counts;
    }

    @Override
    public void saveDebug(String name, Map<String, EventSampling.Setting> settings) throws IOException {
        Path folder = folder(name);
        if (!Files.isDirectory(folder)) {
            return;
        }
        Map<String, Object> json = new TreeMap<>();
        settings.forEach((component, s) -> json.put(component, Map.of("enable", s.enabled(), "samplingPct", s.pct())));
        writeAtomically(folder.resolve(DEBUG), JSONValue.toJSONString(json).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Map<String, EventSampling.Setting> loadDebug(String name) throws IOException {
        Path file = folder(name).resolve(DEBUG);
        if (!Files.isRegularFile(file)) {
            return Map.of();
        }
        Object parsed = JSONValue.parse(Files.readString(file, StandardCharsets.UTF_8));
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IOException(DEBUG + " of '" + name + "' is not a JSON object");
        }
        Map<String, EventSampling.Setting> settings = new TreeMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            if (!(e.getValue() instanceof Map<?, ?> s) || !(s.get("enable") instanceof Boolean enable)
                || !(s.get("samplingPct") instanceof Number pct)) {
                throw new IOException(DEBUG + " of '" + name + "': the entry of '" + e.getKey()
                    + "' needs a boolean enable and a number samplingPct");
            }
            settings.put(String.valueOf(e.getKey()), new EventSampling.Setting(enable, pct.doubleValue()));
        }
        return settings;
    }

    /** Keeps a stored topology's upgrades, oldest first (none: no file). */
    void saveUpgrades(String name, List<UpgradeHistory.Upgrade> upgrades) throws IOException {
        Path folder = folder(name);
        if (!Files.isDirectory(folder)) {
            return;
        }
        if (upgrades.isEmpty()) {
            Files.deleteIfExists(folder.resolve(UPGRADES));
            return;
        }
        writeAtomically(folder.resolve(UPGRADES), JSONValue.toJSONString(UpgradeList.json(upgrades))
            .getBytes(StandardCharsets.UTF_8));
    }

    /** The upgrades {@link #saveUpgrades} kept for {@code name}; empty when it was never upgraded. */
    List<UpgradeHistory.Upgrade> loadUpgrades(String name) throws IOException {
        Path file = folder(name).resolve(UPGRADES);
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return UpgradeList.parse(JSONValue.parse(Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IllegalArgumentException e) {
            throw new IOException(UPGRADES + " of '" + name + "': " + e.getMessage());
        }
    }

    /** The folder the topologies are stored in. */
    Path dir() {
        return dir;
    }

    /** The topology stored under {@code name}, or null when none is completely saved. */
    Stored load(String name) throws IOException {
        Path folder = folder(name);
        Path status = folder.resolve(STATUS);
        return Files.isRegularFile(status) ? load(folder, status) : null;
    }

    void remove(String name) throws IOException {
        deleteRecursively(folder(name));
    }

    /** Every completely saved topology; a damaged one is logged and skipped, never fatal. */
    List<Stored> loadAll() throws IOException {
        List<Stored> result = new ArrayList<>();
        try (Stream<Path> folders = Files.list(dir)) {
            for (Path folder : (Iterable<Path>) folders.sorted()::iterator) {
                Path status = folder.resolve(STATUS);
                if (!Files.isRegularFile(status)) {
                    LOG.warn("Ignoring {}: it was never completely saved", folder);
                    continue;
                }
                try {
                    result.add(load(folder, status));
                } catch (IOException | RuntimeException e) {
                    LOG.error("Cannot restore the topology stored in {}: {}", folder, e.toString());
                }
            }
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static Stored load(Path folder, Path status) throws IOException {
        String name = folder.getFileName().toString();
        Object conf = JSONValue.parse(Files.readString(folder.resolve(CONF), StandardCharsets.UTF_8));
        if (!(conf instanceof Map)) {
            throw new IOException("conf.json is not a JSON object");
        }
        StormTopology topology = Utils.thriftDeserialize(StormTopology.class, Files.readAllBytes(folder.resolve(TOPOLOGY)));
        TopologyInitialStatus initial = TopologyInitialStatus.valueOf(
            Files.readString(status, StandardCharsets.UTF_8).trim());
        return new Stored(name, folder.resolve(JAR), (Map<String, Object>) conf, topology, initial, executors(folder));
    }

    private Path folder(String name) {
        Path folder = dir.resolve(name).normalize();
        if (!folder.getParent().equals(dir.normalize())) {
            throw new IllegalArgumentException("topology name '" + name + "' is not a plain folder name");
        }
        return folder;
    }

    private static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Path temp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.write(temp, bytes);
        try (var channel = java.nio.channels.FileChannel.open(temp, java.nio.file.StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteRecursively(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> all = Files.walk(folder)) {
            for (Path path : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        }
    }
}
