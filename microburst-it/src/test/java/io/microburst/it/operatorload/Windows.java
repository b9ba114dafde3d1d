package io.microburst.it.operatorload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The throughput windows: per full-speed topology, the trees its spouts acked per second in each quiet and each
 * hammered window (from Storm's executor statistics over Thrift, read at each window's ends), the cores the
 * server's process used and the machine's load average. Used by the test's thread only.
 */
final class Windows {
    private final LoadServer server;
    private final OperatorCalls calls;
    private final List<String> ids;
    /** Per topology id, its rates: [0] quiet windows, [1] hammered ones. */
    private final Map<String, List<List<Double>>> rates = new LinkedHashMap<>();
    private final double[] cores = new double[2];
    /** Per kind, trees acked by all full-speed topologies and the server's CPU seconds, summed over windows. */
    private final double[] trees = new double[2];
    private final double[] cpuSeconds = new double[2];
    private final int[] windows = new int[2];
    /** Per kind, the machine's one-minute load average at each window's end, summed. */
    private final double[] load = new double[2];

    Windows(LoadServer server, OperatorCalls calls, List<String> ids) {
        this.server = server;
        this.calls = calls;
        this.ids = ids;
        clear();
    }

    void clear() {
        for (String id : ids) {
            rates.put(id, List.of(new ArrayList<>(), new ArrayList<>()));
        }
        cores[0] = cores[1] = 0;
        trees[0] = trees[1] = 0;
        cpuSeconds[0] = cpuSeconds[1] = 0;
        windows[0] = windows[1] = 0;
        load[0] = load[1] = 0;
    }

    void measure(boolean hammered, int seconds) throws Exception {
        int kind = hammered ? 1 : 0;
        long[] before = acked();
        long cpu = server.cpuMillis();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L); // the window's length
        long[] after = acked();
        double elapsed = (System.nanoTime() - start) / 1e9;
        double used = (server.cpuMillis() - cpu) / 1e3;
        cores[kind] += used / elapsed;
        cpuSeconds[kind] += used;
        windows[kind]++;
        load[kind] += loadAverage();
        for (int i = 0; i < ids.size(); i++) {
            rates.get(ids.get(i)).get(kind).add((after[i] - before[i]) / elapsed);
            trees[kind] += after[i] - before[i];
        }
    }

    /** The one-minute load average (Linux's /proc/loadavg), 0 where there is none. */
    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException none) {
            return 0;
        }
    }

    private long[] acked() throws Exception {
        long[] out = new long[ids.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = calls.acked(ids.get(i));
        }
        return out;
    }

    boolean everyWindowAcked() {
        return rates.values().stream().flatMap(List::stream).flatMap(List::stream).allMatch(r -> r > 0);
    }

    /** One line per topology: its quiet and hammered rates and hammered over quiet; then all of them together. */
    String report(Map<String, String> names) {
        StringBuilder out = new StringBuilder();
        double quietAll = 0;
        double hammeredAll = 0;
        for (Map.Entry<String, List<List<Double>>> e : rates.entrySet()) {
            double quiet = sum(e.getValue().get(0));
            double hammered = sum(e.getValue().get(1));
            quietAll += quiet;
            hammeredAll += hammered;
            String name = names.entrySet().stream().filter(n -> n.getValue().equals(e.getKey())).map(Map.Entry::getKey)
                .findFirst().orElse(e.getKey());
            out.append(String.format("LOAD %s: quiet %s, hammered %s trees/s: hammered/quiet %.3f%n", name,
                shown(e.getValue().get(0)), shown(e.getValue().get(1)), hammered / quiet));
        }
        out.append(String.format("LOAD all full-speed topologies: hammered/quiet %.3f; server cores quiet %.2f,"
            + " hammered %.2f; trees per server CPU second quiet %.0f, hammered %.0f (hammered/quiet %.3f)%n",
            hammeredAll / quietAll, cores[0] / windows[0], cores[1] / windows[1], trees[0] / cpuSeconds[0],
            trees[1] / cpuSeconds[1], trees[1] / cpuSeconds[1] / (trees[0] / cpuSeconds[0])));
        out.append(String.format("LOAD load average at the windows' ends: quiet %.1f, hammered %.1f%n",
            load[0] / windows[0], load[1] / windows[1]));
        return out.toString();
    }

    private static String shown(List<Double> list) {
        return list.stream().map(r -> String.format("%.0f", r)).toList().toString();
    }

    private static double sum(List<Double> list) {
        return list.stream().mapToDouble(Double::doubleValue).sum();
    }
}
