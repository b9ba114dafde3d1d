package io.microburst.bench.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The layout a run ended in, as its threads show it: the live threads whose names start with a prefix (a runtime's
 * executor threads), each with the share of a core it used between {@link #start} and {@link #describe}. The bench
 * logs it so that each run says which layout it measured. Call both from the measuring thread.
 */
public final class LayoutProbe {
    private final String prefix;
    private final Map<Long, Long> cpuAtStart = new TreeMap<>();
    private long startNanos;

    public LayoutProbe(String prefix) {
        this.prefix = prefix;
    }

    /** The measured window starts: takes each matching thread's CPU time. */
    public void start() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        cpuAtStart.clear();
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith(prefix)) {
                cpuAtStart.put(t.getThreadId(), mx.getThreadCpuTime(t.getThreadId()));
            }
        }
        startNanos = System.nanoTime();
    }

    /** The matching threads alive now, by name, for example {@code 2 threads: x-a+b[1-2] x-c[3]}. */
    public String names() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Integer> threads = new TreeMap<>();
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith(prefix)) {
                threads.merge(t.getThreadName(), 1, Integer::sum);
            }
        }
        StringBuilder s = new StringBuilder().append(threads.values().stream().mapToInt(Integer::intValue).sum())
            .append(" threads:");
        threads.forEach((name, n) -> s.append(' ').append(name).append(n > 1 ? " x" + n : ""));
        return s.toString();
    }

    /**
     * The matching threads alive now, by name, each with its cores over the window ({@code ?} for one started during
     * it), for example {@code 2 threads: x-a+b[1-2]=0.98 x-c[3]=0.71}.
     */
    public String describe() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double elapsed = Math.max(1, System.nanoTime() - startNanos);
        Map<String, String> threads = new TreeMap<>();
        for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
            if (t == null || !t.getThreadName().startsWith(prefix)) {
                continue;
            }
            Long before = cpuAtStart.get(t.getThreadId());
            long now = mx.getThreadCpuTime(t.getThreadId());
            String cores = before == null || before < 0 || now < 0 ? "?"
                : String.format(Locale.ROOT, "%.2f", (now - before) / elapsed);
            threads.merge(t.getThreadName(), cores, (a, b) -> a + "," + b);
        }
        StringBuilder s = new StringBuilder().append(threads.values().stream().mapToInt(c -> c.split(",").length).sum())
            .append(" threads:");
        threads.forEach((name, cores) -> s.append(' ').append(name).append('=').append(cores));
        return s.toString();
    }
}
