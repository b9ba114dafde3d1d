package io.microburst.server;

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
 * topology (Thrift binary) and its status (ACTIVE or INACTIVE). Every file is written to a temporary name and moved
 * into place atomically, so a process killed at any point leaves either the old or the new version; a folder without
 * its {@code status} file was never completely saved and is ignored.
 *
 * <p>Thread-safe for different topologies; calls about one topology are serialised by the caller.
 */
final class TopologyStore {
    private static final Logger LOG = LoggerFactory.getLogger(TopologyStore.class);
    private static final String JAR = "topology.jar";
    private static final String CONF = "conf.json";
    private static final String TOPOLOGY = "topology.thrift";
    private static final String STATUS = "status";

    private final Path dir;

    TopologyStore(Path dir) throws IOException {
        this.dir = Files.createDirectories(dir);
    }

    /** One stored topology. */
    record Stored(String name, Path jar, Map<String, Object> conf, StormTopology topology, TopologyInitialStatus status) {
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
        return new Stored(name, folder.resolve(JAR), conf, topology, status);
    }

    void setStatus(String name, TopologyInitialStatus status) throws IOException {
        Path folder = folder(name);
        if (Files.isDirectory(folder)) {
            writeAtomically(folder.resolve(STATUS), status.name().getBytes(StandardCharsets.UTF_8));
        }
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
        return new Stored(name, folder.resolve(JAR), (Map<String, Object>) conf, topology, initial);
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
