package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.runtime.topology.ThreadView;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.storm.generated.NotAliveException;

/**
 * A flame graph of one component's executor threads ({@code /api/v1/topology/{id}/component/{c}/flamegraph?seconds=N},
 * Microburst's own path): their stacks sampled in this process every {@value #INTERVAL_MS} ms or more for N seconds
 * (1 to {@value #MAX_SECONDS}, default 2), merged into a tree of frames counted by samples, with a thread that is not running
 * (parked, waiting for tuples) topped by its state. The cost is bounded and reported: one sampling at a time, at most
 * {@value #MAX_DEPTH} frames per stack, and each sample a brief pause of the sampled threads (the JVM takes stacks at
 * a safepoint); the interval grows so that taking samples stays under {@value #MAX_SHARE_PERCENT}% of the time, and
 * {@code samplingMs} says how long it took in all. Runs on the request's thread; thread-safe.
 */
final class FlameGraphApi {
    static final int MAX_SECONDS = 10;
    static final int INTERVAL_MS = 10;
    static final int MAX_DEPTH = 128;
    static final int MAX_SHARE_PERCENT = 5;
    private final MicroburstCluster cluster;
    private final Semaphore one = new Semaphore(1);
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    FlameGraphApi(MicroburstCluster cluster) {
        this.cluster = cluster;
    }

    Map<String, Object> of(String id, String component, String seconds) throws NotAliveException, InterruptedException {
        int secs = seconds(seconds);
        String name = cluster.getTopologySummary(id).get_name();
        Set<String> names = new HashSet<>();
        for (ThreadView view : cluster.getThreadViews(name)) {
            if (view.tasks().stream().anyMatch(t -> t.componentId().equals(component))) {
                names.add(view.name());
            }
        }
        if (names.isEmpty()) {
            throw new NotAliveException("Topology '" + id + "' has no component '" + component + "' running on a thread");
        }
        if (!one.tryAcquire()) {
            throw new IllegalArgumentException("a flame graph is being sampled already (one at a time, to bound the "
                + "cost); ask again in " + MAX_SECONDS + " s");
        }
        try {
            return sample(id, component, ids(names), secs);
        } finally {
            one.release();
        }
    }

    private Map<String, Object> sample(String id, String component, long[] ids, int secs) {
        Node root = new Node(component);
        long samplingNanos = 0;
        int samples = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(secs);
        long next = System.nanoTime();
        while (next < end) {
            long start = System.nanoTime();
            ThreadInfo[] infos = threads.getThreadInfo(ids, MAX_DEPTH);
            long took = System.nanoTime() - start;
            samplingNanos += took;
            samples++;
            for (ThreadInfo info : infos) {
                if (info != null) {
                    add(root, info);
                }
            }
            // the first call pays the JVM's one-off setup, so it does not set the pace
            long pace = samples == 1 ? 0 : took * (100 / MAX_SHARE_PERCENT);
            next += Math.max(TimeUnit.MILLISECONDS.toNanos(INTERVAL_MS), pace);
            LockSupport.parkNanos(next - System.nanoTime());
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologyId", id);
        json.put("component", component);
        json.put("threads", ids.length);
        json.put("seconds", secs);
        json.put("intervalMs", INTERVAL_MS);
        json.put("samples", samples);
        json.put("samplingMs", samplingNanos / 1e6);
        json.put("tree", root.json());
        return json;
    }

    /** Adds one stack, outermost frame first, under its thread's name. */
    private static void add(Node root, ThreadInfo info) {
        root.count++;
        Node node = root.child(info.getThreadName());
        node.count++;
        StackTraceElement[] stack = info.getStackTrace();
        for (int i = stack.length - 1; i >= 0; i--) {
            node = node.child(frame(stack[i]));
            node.count++;
        }
        if (info.getThreadState() != Thread.State.RUNNABLE) {
            node.child("[" + info.getThreadState() + "]").count++;
        }
    }

    private static String frame(StackTraceElement e) {
        String cls = e.getClassName();
        return cls.substring(cls.lastIndexOf('.') + 1) + "." + e.getMethodName();
    }

    private static long[] ids(Set<String> names) {
        List<Long> ids = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (names.contains(t.getName())) {
                ids.add(t.getId());
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private static int seconds(String text) {
        if (text == null || text.isBlank()) {
            return 2;
        }
        if (!text.matches("\\d{1,2}") || Integer.parseInt(text) < 1 || Integer.parseInt(text) > MAX_SECONDS) {
            throw new IllegalArgumentException("seconds must be a whole number from 1 to " + MAX_SECONDS + ", got '"
                + text + "'");
        }
        return Integer.parseInt(text);
    }

    /** A frame and how many samples passed through it. Confined to the sampling request's thread. */
    private static final class Node {
        private final String name;
        private final Map<String, Node> children = new LinkedHashMap<>();
        private int count;

        Node(String name) {
            this.name = name;
        }

        Node child(String frame) {
            return children.computeIfAbsent(frame, Node::new);
        }

        /** As ECharts and d3 hierarchies take it: {@code {name, value, children}}. */
        Map<String, Object> json() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("name", name);
            json.put("value", count);
            if (!children.isEmpty()) {
                List<Object> list = new ArrayList<>();
                children.values().forEach(c -> list.add(c.json()));
                json.put("children", list);
            }
            return json;
        }
    }
}
