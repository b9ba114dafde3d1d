package io.microburst.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import io.microburst.config.ConfigKeys;

/**
 * How many executors each component should have, as a pure function of what was measured over a window, after DS2
 * (Kalavri et al., OSDI 2018): a component's true processing rate is the tuples it executed per unit of useful time
 * (time spent executing, not waiting), so one executor of it can take that many tuples a second; its target input
 * rate is the output its upstream components are to produce, in the proportion observed; its executor count is the
 * target input rate over the true rate. When the true rates do not change with the counts, one decision reaches the
 * counts, a second confirms them.
 *
 * <p>The sources. DS2 is given the spouts' target rates; Storm spouts emit as fast as they are polled, so the target
 * here is the highest rate the machine's cores can carry: each spout's own true rate at its task count, scaled down so
 * that the executors needed add up to {@code cores} busy threads and no component needs more executors than it has
 * tasks. Counts are rounded up (a component never gets fewer than its share), at least 1, at most the task count.
 *
 * <p>Slices. Where the runtime may fuse (the default), components of equal executor counts P run as P slices, P
 * threads each running a share of every one of them (see {@link FusionPlan}); then an executor is not a thread, and
 * counting executors against cores, as DS2 does, misjudges the machine: WordCount at 4 tasks a component on 2 cores
 * was given one executor each (split and count each needing about one core's worth), which ran on 2 busy threads
 * plus hand-overs, 10% slower than 2 slices. So when the cores, not the sources, are the limit (the executors needed
 * add up to more than the cores) and the runtime slices, every component of at least 2 tasks gets
 * {@code min(tasks, cores)} executors: a slice per core, each with its share of every component.
 *
 * <p>Threading: stateless; any thread.
 */
public final class ParallelismPolicy {
    /** A component needing this share of an executor more than a whole number still gets the whole number. */
    private static final double ROUNDING_SLACK = 0.1;

    /**
     * One component, measured over a window.
     *
     * @param id component id
     * @param spout whether it is a spout
     * @param inputs the components it subscribes to
     * @param tasks its task count, the most executors it can have
     * @param executors its executor count now
     * @param executed tuples its tasks executed (bolts; 0 for spouts)
     * @param emitted tuples its tasks emitted
     * @param usefulNanos time its tasks spent executing (bolts) or in nextTuple (spouts), summed over its executors
     */
    public record Component(String id, boolean spout, List<String> inputs, int tasks, int executors, long executed,
                            long emitted, long usefulNanos) {
        public Component {
            inputs = List.copyOf(inputs);
        }
    }

    /**
     * A decision.
     *
     * @param executors the executor count of each component
     * @param changed whether any count differs from the current one
     * @param reason the counts with the rates behind them, for the log and the topology's errors
     */
    public record Decision(Map<String, Integer> executors, boolean changed, String reason) {
    }

    private ParallelismPolicy() {
    }

    /** Whether a topology configuration asks for automatic parallelism ({@link ConfigKeys#PARALLELISM}). */
    public static boolean enabled(Map<String, Object> conf) {
        Object value = conf.get(ConfigKeys.PARALLELISM);
        if (value == null) {
            return false;
        }
        String s = String.valueOf(value).trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "auto" -> true;
            case "static", "" -> false;
            default -> throw new IllegalArgumentException(ConfigKeys.PARALLELISM + " must be auto or static, not '"
                + value + "'");
        };
    }

    /**
     * The executor counts for components measured as {@code measured} (in topological order or not), on a machine with
     * {@code cores} cores, counting each executor as a thread. A component with no useful time measured keeps its count.
     */
    public static Decision decide(List<Component> measured, int cores) {
        return decide(measured, cores, false);
    }

    /**
     * As {@link #decide(List, int)}; when {@code slices} (the runtime runs components of equal counts as slices) and
     * the cores are the limit, a slice per core (see the class comment).
     */
    public static Decision decide(List<Component> measured, int cores, boolean slices) {
        Map<String, Component> byId = new LinkedHashMap<>();
        for (Component c : measured) {
            byId.put(c.id(), c);
        }
        // target rates at full source speed: spouts at their true rate times their tasks, bolts by propagation
        Map<String, Double> inRate = new HashMap<>();
        Map<String, Double> outRate = new HashMap<>();
        for (Component c : order(byId)) {
            if (c.spout()) {
                double rate = c.usefulNanos() > 0 ? c.tasks() * (double) c.emitted() / c.usefulNanos() : 0;
                outRate.put(c.id(), rate);
                continue;
            }
            double upstreamTarget = 0;
            long upstreamObserved = 0;
            for (String in : c.inputs()) {
                Component p = byId.get(in);
                if (p != null && !p.id().equals(c.id())) {
                    upstreamTarget += outRate.getOrDefault(in, 0.0);
                    upstreamObserved += p.emitted();
                }
            }
            double in = upstreamObserved > 0 ? upstreamTarget * c.executed() / upstreamObserved : 0;
            inRate.put(c.id(), in);
            outRate.put(c.id(), c.executed() > 0 ? in * c.emitted() / c.executed() : 0);
        }
        // executors needed at that speed: target rate over true rate
        Map<String, Double> needed = new LinkedHashMap<>();
        double total = 0;
        double scale = 1;
        for (Component c : byId.values()) {
            double trueRate = trueRate(c);
            if (trueRate <= 0) {
                continue;
            }
            double n = (c.spout() ? outRate.get(c.id()) : inRate.get(c.id())) / trueRate;
            needed.put(c.id(), n);
            total += n;
            if (n > c.tasks()) {
                scale = Math.min(scale, c.tasks() / n);
            }
        }
        boolean sliceAll = slices && total > cores && cores >= 2;
        if (total > cores) {
            scale = Math.min(scale, cores / total);
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        boolean changed = false;
        StringBuilder reason = new StringBuilder("automatic parallelism for ").append(cores).append(" cores")
            .append(sliceAll ? ", a slice per core (the cores are the limit):" : ":");
        for (Component c : byId.values()) {
            Double n = needed.get(c.id());
            int count = c.executors();
            if (n != null) {
                count = (int) Math.max(1, Math.min(c.tasks(), Math.ceil(n * scale - ROUNDING_SLACK)));
                if (sliceAll && c.tasks() >= 2) {
                    count = Math.min(c.tasks(), cores);
                }
                reason.append(String.format(Locale.ROOT, " %s %d->%d (true rate %.0f/s per executor, target %.0f/s);",
                    c.id(), c.executors(), count, trueRate(c) * 1e9,
                    (c.spout() ? outRate.get(c.id()) : inRate.get(c.id())) * scale * 1e9));
            } else {
                reason.append(' ').append(c.id()).append(' ').append(count).append(" (not measured);");
            }
            counts.put(c.id(), count);
            changed |= count != c.executors();
        }
        reason.setLength(reason.length() - 1);
        return new Decision(counts, changed, reason.toString());
    }

    /** Tuples executed (bolts) or emitted (spouts) per nanosecond of useful time: one executor's true rate. */
    private static double trueRate(Component c) {
        if (c.usefulNanos() <= 0) {
            return 0;
        }
        return (double) (c.spout() ? c.emitted() : c.executed()) / c.usefulNanos();
    }

    /** Components with their inputs first (inputs on a cycle are taken as they come). */
    private static List<Component> order(Map<String, Component> byId) {
        List<Component> out = new ArrayList<>();
        Map<String, Integer> state = new HashMap<>();
        for (Component c : byId.values()) {
            visit(c, byId, state, out);
        }
        return out;
    }

    private static void visit(Component c, Map<String, Component> byId, Map<String, Integer> state, List<Component> out) {
        if (state.containsKey(c.id())) {
            return;
        }
        state.put(c.id(), 1);
        for (String in : c.inputs()) {
            Component p = byId.get(in);
            if (p != null) {
                visit(p, byId, state, out);
            }
        }
        state.put(c.id(), 2);
        out.add(c);
    }
}
