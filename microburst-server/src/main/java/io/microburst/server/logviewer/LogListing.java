package io.microburst.server.logviewer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files the logviewer lists, by their names relative to the folder ({@code ID/PORT/worker.log}, as {@code file=}
 * takes them): no link is followed. Stateless; the request's thread.
 */
final class LogListing {
    private static final String WORKER_LOG = "worker.log";

    private LogListing() {
    }

    /** The files of a topology and/or a port (null: any), sorted by name. */
    static List<String> files(Path root, String topologyId, String port) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root, 3)) {
            files.filter(f -> Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).map(root::relativize)
                .filter(r -> r.getNameCount() == 3)
                .filter(r -> topologyId == null || r.getName(0).toString().equals(topologyId))
                .filter(r -> port == null || r.getName(1).toString().equals(port))
                .forEach(r -> names.add(r.toString()));
        }
        Collections.sort(names);
        return names;
    }

    /**
     * A worker's logs in a port folder ({@code ID/PORT}), newest first as Storm's deep search takes them: {@code
     * worker.log}, then {@code worker.log.1.gz}, {@code worker.log.2.gz}...; other files (the event log, dumps) are not
     * worker logs.
     */
    static List<String> workerLogs(Path root, String topologyId, String port) throws IOException {
        List<String> logs = new ArrayList<>();
        for (String name : files(root, topologyId, port)) {
            if (rank(Path.of(name).getFileName().toString()) >= 0) {
                logs.add(name);
            }
        }
        logs.sort(Comparator.comparingLong(name -> rank(Path.of(name).getFileName().toString())));
        return logs;
    }

    /** The port folders of a topology, sorted. */
    static List<String> ports(Path root, String topologyId) throws IOException {
        List<String> ports = new ArrayList<>();
        Path dir = root.resolve(topologyId);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return ports;
        }
        try (Stream<Path> children = Files.list(dir)) {
            children.filter(c -> Files.isDirectory(c, LinkOption.NOFOLLOW_LINKS))
                .forEach(c -> ports.add(c.getFileName().toString()));
        }
        Collections.sort(ports);
        return ports;
    }

    /** 0 for the live worker log, N for its Nth rolled file, -1 for anything else. */
    private static long rank(String fileName) {
        if (fileName.equals(WORKER_LOG)) {
            return 0;
        }
        String rolled = fileName.startsWith(WORKER_LOG + ".") && fileName.endsWith(".gz")
            ? fileName.substring(WORKER_LOG.length() + 1, fileName.length() - 3) : "";
        return rolled.matches("[1-9][0-9]{0,8}") ? Long.parseLong(rolled) : -1;
    }
}
