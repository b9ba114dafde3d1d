package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.runtime.task.EmitSampler;
import io.microburst.runtime.topology.EmitSampling;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.storm.generated.NotAliveException;

/**
 * Storm's debug event log: the emits a topology's tasks sample ({@link EmitSampler}, at the percentage the UI's
 * {@code debug/enable/PCT} gives) are written, one line each ({@code MILLIS,COMPONENT,TASK,STREAM,VALUES}), to
 * {@code ID/PORT/events.log} beside the worker log, where the logviewer serves it. Thread-safe: executor threads
 * write concurrently (each line appended whole under the file's lock); requests turn sampling on and off.
 */
final class EventLogs {
    private final MicroburstCluster cluster;
    private final Path artifacts;

    EventLogs(MicroburstCluster cluster, Path artifacts) {
        this.cluster = cluster;
        this.artifacts = artifacts;
    }

    /** The file a topology's sampled emits go to. */
    Path file(String topologyId, int port) {
        return artifacts.resolve(topologyId).resolve(String.valueOf(port)).resolve("events.log");
    }

    /** Samples {@code pct}% of the emits of the topology's tasks (one component's, unless null); 0 stops. */
    void sample(String topologyId, String topologyName, int port, String component, double pct)
        throws NotAliveException {
        Path file = file(topologyId, port);
        EmitSampler.Sink sink = (c, task, stream, values) -> append(file, c, task, stream, values);
        EmitSampling.apply(cluster.getThreadViews(topologyName), component, pct, sink);
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
