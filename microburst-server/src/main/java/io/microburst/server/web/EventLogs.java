package io.microburst.server.web;

import io.microburst.runtime.task.EmitSampler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Storm's debug event log: the emits a topology's tasks sample ({@link EmitSampler}, at the percentage the UI's
 * {@code debug/enable/PCT} gives) are written, one line each ({@code MILLIS,COMPONENT,TASK,STREAM,VALUES}), to
 * {@code ID/PORT/events.log} beside the worker log, where the logviewer serves it. Thread-safe: executor threads
 * write concurrently (each line appended whole under the file's lock).
 */
final class EventLogs {
    private final Path artifacts;

    EventLogs(Path artifacts) {
        this.artifacts = artifacts;
    }

    /** The file a topology's sampled emits go to. */
    Path file(String topologyId, int port) {
        return artifacts.resolve(topologyId).resolve(String.valueOf(port)).resolve("events.log");
    }

    /** Where the sampled emits of the topology's tasks go: its {@link #file}. */
    EmitSampler.Sink sink(String topologyId, int port) {
        Path file = file(topologyId, port);
        return (c, task, stream, values) -> append(file, c, task, stream, values);
    }

    private static void append(Path file, String component, int task, String stream, List<Object> values) {
        String line = System.currentTimeMillis() + "," + component + "," + task + "," + stream + "," + values + "\n";
        synchronized (EventLogs.class) {
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the event log " + file, e);
            }
        }
    }
}
