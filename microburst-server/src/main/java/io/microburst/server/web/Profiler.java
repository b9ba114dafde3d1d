package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.runtime.topology.ThreadView;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.Recording;
import org.apache.storm.generated.NotAliveException;

/**
 * Storm's worker profiling actions, mapped to what one process does well, each writing its file where the logviewer
 * serves the topology's worker log ({@code ID/PORT/} under the worker artifacts folder): {@code dumpjstack} a thread
 * dump of the topology's executor threads ({@code jstack-TIME.txt}), {@code dumpheap} a heap dump of the server's
 * process ({@code heapdump-TIME.hprof}, live objects), {@code start} a Java Flight Recorder recording that stops
 * itself after the timeout, {@code dumpprofile} a copy of it so far and {@code stop} its end
 * ({@code recording-TIME.jfr}). One recording per topology at a time. Thread-safe (synchronised): requests arrive on
 * the web server's threads.
 */
final class Profiler {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS");
    private final MicroburstCluster cluster;
    private final Path artifacts;
    private final Map<String, Active> recordings = new LinkedHashMap<>();

    private record Active(Recording recording, String host, int port, long startMillis, long stopAtMillis) {
    }

    /** @param artifacts the folder the logviewer serves, holding {@code ID/PORT/} per topology */
    Profiler(MicroburstCluster cluster, Path artifacts) {
        this.cluster = cluster;
        this.artifacts = artifacts;
    }

    /** Writes the stacks of the topology's executor threads; returns the file. */
    Path threadDump(String topologyId, String topologyName, int port) throws IOException, NotAliveException {
        Set<String> names = new HashSet<>();
        for (ThreadView thread : cluster.getThreadViews(topologyName)) {
            names.add(thread.name());
        }
        StringBuilder text = new StringBuilder("Threads of topology " + topologyName + " (" + topologyId + ") at "
            + LocalDateTime.now() + "\n\n");
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            if (names.contains(info.getThreadName())) {
                text.append(stack(info)).append('\n');
            }
        }
        return write(topologyId, port, "jstack", ".txt", text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** {@link ThreadInfo#toString()} cuts stacks at eight frames; this keeps them whole. */
    private static String stack(ThreadInfo info) {
        StringBuilder text = new StringBuilder("\"" + info.getThreadName() + "\" #" + info.getThreadId() + " "
            + info.getThreadState() + (info.getLockName() == null ? "" : " on " + info.getLockName()) + "\n");
        for (StackTraceElement frame : info.getStackTrace()) {
            text.append("\tat ").append(frame).append('\n');
        }
        return text.toString();
    }

    /** Writes a heap dump of the live objects of the server's process; returns the file. */
    Path heapDump(String topologyId, int port) throws IOException {
        Path file = file(topologyId, port, "heapdump", ".hprof");
        ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
            .dumpHeap(file.toString(), true);
        return file;
    }

    /** Starts a flight recording of the process for the topology, which stops itself after {@code minutes}. */
    synchronized void start(String topologyId, String host, int port, int minutes) throws IOException {
        if (stopsAt(topologyId) != null) {
            throw new IllegalArgumentException("a profiler recording already runs for topology '" + topologyId
                + "'; stop it first (profiling/stop/" + host + ":" + port + ")");
        }
        startUntil(topologyId, host, port, System.currentTimeMillis() + minutes * 60_000L);
    }

    /**
     * Nimbus' {@code JPROFILE_STOP} at a future time, as Storm's UI sends it to start profiling: a recording that stops
     * itself at {@code stopAtMillis}; a recording already running is made to stop then instead.
     */
    synchronized void startUntil(String topologyId, String host, int port, long stopAtMillis) throws IOException {
        long now = System.currentTimeMillis();
        Active running = recordings.get(topologyId);
        if (stopsAt(topologyId) != null) {
            running.recording().setDuration(Duration.ofMillis(Math.max(1, stopAtMillis - running.startMillis())));
            recordings.put(topologyId, new Active(running.recording(), host, port, running.startMillis(), stopAtMillis));
            return;
        }
        Recording recording = new Recording();
        recording.setName("microburst-" + topologyId);
        recording.setDuration(Duration.ofMillis(Math.max(1, stopAtMillis - now)));
        recording.setDestination(file(topologyId, port, "recording", ".jfr"));
        recording.start();
        recordings.put(topologyId, new Active(recording, host, port, now, stopAtMillis));
    }

    /** When the topology's running recording stops itself, or null when none runs. */
    synchronized Long stopsAt(String topologyId) {
        Active active = recordings.get(topologyId);
        if (active == null || active.recording().getState() != jdk.jfr.RecordingState.RUNNING) {
            recordings.remove(topologyId);
            return null;
        }
        return active.stopAtMillis();
    }

    /** Copies the running recording so far into its own file; returns it. */
    synchronized Path dump(String topologyId, int port) throws IOException {
        Path file = file(topologyId, port, "recording", ".jfr");
        running(topologyId).recording().dump(file);
        return file;
    }

    /** Stops the recording, which writes its file. */
    synchronized void stop(String topologyId) {
        Active active = running(topologyId);
        recordings.remove(topologyId);
        active.recording().stop();
        active.recording().close();
    }

    private Active running(String topologyId) {
        Active active = recordings.get(topologyId);
        if (active == null || active.recording().getState() != jdk.jfr.RecordingState.RUNNING) {
            recordings.remove(topologyId);
            throw new IllegalArgumentException("no profiler recording runs for topology '" + topologyId
                + "'; start one with profiling/start/HOST:PORT/MINUTES");
        }
        return active;
    }

    /** Storm's {@code profilerActive}: the recording in progress for the topology, if any. */
    synchronized List<Object> active(String topologyId, LogviewerAddress logviewer) {
        List<Object> rows = new ArrayList<>();
        Active active = recordings.get(topologyId);
        if (active != null && active.recording().getState() == jdk.jfr.RecordingState.RUNNING) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("host", active.host());
            row.put("port", String.valueOf(active.port()));
            row.put("dumplink", dumpLink(active.host(), logviewer, topologyId, active.port()));
            row.put("timestamp", System.currentTimeMillis() - active.startMillis());
            rows.add(row);
        }
        return rows;
    }

    /** Where the logviewer lists the topology's files, dumps included. */
    static String dumpLink(String host, LogviewerAddress logviewer, String topologyId, int port) {
        return logviewer.url(host, "/api/v1/listLogs?topoId=" + org.apache.storm.utils.Utils.urlEncodeUtf8(topologyId)
            + "&port=" + port);
    }

    private Path write(String topologyId, int port, String prefix, String suffix, byte[] bytes) throws IOException {
        Path file = file(topologyId, port, prefix, suffix);
        Files.write(file, bytes);
        return file;
    }

    private Path file(String topologyId, int port, String prefix, String suffix) throws IOException {
        Path dir = Files.createDirectories(artifacts.resolve(topologyId).resolve(String.valueOf(port)));
        return dir.resolve(prefix + "-" + LocalDateTime.now().format(STAMP) + suffix);
    }
}
