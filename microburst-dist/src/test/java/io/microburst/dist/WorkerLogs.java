package io.microburst.dist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The worker logs the server writes under the installation's {@code logs/workers-artifacts/ID/PORT/worker.log}, read
 * by topology name (a topology's id starts with its name and a dash). Threading: the test's thread.
 */
final class WorkerLogs {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final Path artifacts;

    WorkerLogs(Path artifacts) {
        this.artifacts = artifacts;
    }

    /** How many times {@code text} occurs in the worker logs of the topology {@code name}. */
    int count(String name, String text) throws IOException {
        int count = 0;
        for (Path log : logs(name)) {
            String content = Files.readString(log);
            for (int at = content.indexOf(text); at >= 0; at = content.indexOf(text, at + text.length())) {
                count++;
            }
        }
        return count;
    }

    /** Waits until {@code text} occurs more than {@code than} times in the topology's worker logs. */
    void awaitMore(String name, String text, int than) throws Exception {
        Await.until("more than " + than + " lines with '" + text + "' in the worker log of " + name, TIMEOUT,
            () -> count(name, text) > than, () -> logs(name) + ": " + count(name, text));
    }

    private List<Path> logs(String name) throws IOException {
        if (!Files.isDirectory(artifacts)) {
            return List.of();
        }
        try (Stream<Path> topologies = Files.list(artifacts)) {
            List<Path> folders = topologies.filter(f -> f.getFileName().toString().startsWith(name + "-")).toList();
            List<Path> logs = new ArrayList<>();
            for (Path folder : folders) {
                try (Stream<Path> files = Files.walk(folder)) {
                    files.filter(f -> f.getFileName().toString().equals("worker.log")).sorted().forEach(logs::add);
                }
            }
            return logs;
        }
    }
}
