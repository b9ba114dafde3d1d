package io.microburst.plan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.microburst.config.ConfigKeys;
import org.apache.storm.generated.Grouping;
import org.apache.storm.utils.ObjectReader;

/**
 * Decides which bolts run inside their producer's executors (operator fusion): their tuples then arrive by a method
 * call on the producer's thread, with no queue, no copy and no wake-up. A bolt is fused into its producer when
 * <ul>
 *   <li>it has exactly one input, from a different component, and the two are not on a cycle;</li>
 *   <li>each of the two runs one task per executor;</li>
 *   <li>the edge is one-to-one: local-or-shuffle between equal task counts (each producer task feeds the consumer task
 *       it shares a thread with, which is what "local" means in one process), or any of shuffle, local-or-shuffle,
 *       none, fields, global and all from one task into one task;</li>
 *   <li>neither the topology nor the bolt's own configuration sets {@link ConfigKeys#FUSION} to false.</li>
 * </ul>
 *
 * <p>It also decides which executors share a thread (slices). When a topology has more executors than the machine has
 * cores, components linked to each other with the same executor count P (at least 2), fusion allowed, not on a cycle,
 * run as P slices: slice k is one thread running executor k of each of them, instead of a thread per executor. A
 * tuple from a task to a task of the same slice is then a direct call, as in a fused chain; one to another slice is
 * handed over as between any two executors. Slices are made only while they still leave a thread for every core.
 * On two cores, WordCount at parallelism 2 runs on two threads instead of six.
 *
 * <p>Fusion changes threads, never semantics: every task still sees its methods called from one thread at a time, and
 * acking, ticks, metrics and error handling are those of an unfused task.
 *
 * <p>Threading: immutable; any thread.
 */
public final class FusionPlan {
    private final Map<String, String> fusedInto;
    /** Components run in slices, each with its depth among them: how many slice edges lead to it at most. */
    private final Map<String, Integer> sliced;
    /** Each sliced component's slice set: the components whose executors k share a thread. */
    private final Map<String, Integer> sliceSet;

    private FusionPlan(Map<String, String> fusedInto, Map<String, Integer> sliced, Map<String, Integer> sliceSet) {
        this.fusedInto = Collections.unmodifiableMap(fusedInto);
        this.sliced = Collections.unmodifiableMap(sliced);
        this.sliceSet = Collections.unmodifiableMap(sliceSet);
    }

    /** The plan for this machine's cores. */
    public static FusionPlan of(TopologyPlan plan) {
        return of(plan, Runtime.getRuntime().availableProcessors());
    }

    /** The plan for a machine with {@code cores} cores (slices depend on it). */
    public static FusionPlan of(TopologyPlan plan, int cores) {
        Map<String, String> fused = new HashMap<>();
        if (!ObjectReader.getBoolean(plan.conf().get(ConfigKeys.FUSION), true)) {
            return new FusionPlan(fused, Map.of(), Map.of());
        }
        for (ComponentPlan c : plan.components().values()) {
            if (c.isSpout() || !ObjectReader.getBoolean(c.conf().get(ConfigKeys.FUSION), true)) {
                continue;
            }
            List<Subscription> inputs = c.inputs();
            if (inputs.size() != 1) {
                continue;
            }
            Subscription in = inputs.get(0);
            ComponentPlan producer = plan.component(in.stream().componentId());
            if (producer == c || plan.onCycle(producer.id(), c.id())) {
                continue;
            }
            if (producer.executors() != producer.taskIds().size() || c.executors() != c.taskIds().size()) {
                continue;
            }
            if (oneToOne(in.grouping(), producer.taskIds().size(), c.taskIds().size())) {
                fused.put(c.id(), producer.id());
            }
        }
        Map<String, Integer> sliced = new HashMap<>();
        Map<String, Integer> sliceSet = new HashMap<>();
        slices(plan, fused, cores, sliced, sliceSet);
        return new FusionPlan(fused, sliced, sliceSet);
    }

    /**
     * Finds the slice sets: connected groups of unfused components with the same executor count P >= 2, fusion
     * allowed, linked by edges not on a cycle. A set is sliced while the topology still has at least {@code cores}
     * threads afterwards, and only when it had more executors than cores to begin with.
     */
    private static void slices(TopologyPlan plan, Map<String, String> fused, int cores, Map<String, Integer> sliced,
        Map<String, Integer> sliceSet) {
        int threads = 0;
        for (ComponentPlan c : plan.components().values()) {
            if (!fused.containsKey(c.id())) {
                threads += c.executors();
            }
        }
        if (threads <= cores) {
            return;
        }
        Map<String, List<String>> links = new LinkedHashMap<>();
        for (ComponentPlan c : plan.components().values()) {
            if (!sliceable(c, fused)) {
                continue;
            }
            links.putIfAbsent(c.id(), new ArrayList<>());
            for (Subscription in : c.inputs()) {
                ComponentPlan producer = plan.component(in.stream().componentId());
                if (producer != c && sliceable(producer, fused) && producer.executors() == c.executors()
                    && !plan.onCycle(producer.id(), c.id())) {
                    links.get(c.id()).add(producer.id());
                    links.computeIfAbsent(producer.id(), k -> new ArrayList<>()).add(c.id());
                }
            }
        }
        int setId = 0;
        Set<String> seen = new HashSet<>();
        for (String start : links.keySet()) {
            if (seen.contains(start)) {
                continue;
            }
            List<String> set = new ArrayList<>();
            ArrayDeque<String> work = new ArrayDeque<>(List.of(start));
            seen.add(start);
            while (!work.isEmpty()) {
                String c = work.poll();
                set.add(c);
                for (String next : links.get(c)) {
                    if (seen.add(next)) {
                        work.add(next);
                    }
                }
            }
            if (set.size() < 2) {
                continue;
            }
            int p = plan.component(start).executors();
            int after = threads - p * (set.size() - 1);
            if (after < cores) {
                continue;
            }
            threads = after;
            for (String c : set) {
                sliceSet.put(c, setId);
                sliced.put(c, 0);
            }
            setId++;
        }
        // depth: the longest run of slice edges leading to a component, so adjacent ones get different parities
        boolean changed = true;
        while (changed) {
            changed = false;
            for (String c : sliced.keySet()) {
                for (Subscription in : plan.component(c).inputs()) {
                    String producer = in.stream().componentId();
                    Integer d = sliced.get(producer);
                    if (d != null && !producer.equals(c) && sliceSet.get(producer).equals(sliceSet.get(c))
                        && d + 1 > sliced.get(c)) {
                        sliced.put(c, d + 1);
                        changed = true;
                    }
                }
            }
        }
    }

    private static boolean sliceable(ComponentPlan c, Map<String, String> fused) {
        return !fused.containsKey(c.id()) && c.executors() >= 2
            && ObjectReader.getBoolean(c.conf().get(ConfigKeys.FUSION), true);
    }

    private static boolean oneToOne(Grouping g, int producerTasks, int consumerTasks) {
        switch (g.getSetField()) {
            case LOCAL_OR_SHUFFLE:
                return producerTasks == consumerTasks;
            case SHUFFLE:
            case NONE:
            case FIELDS:
            case ALL:
                return producerTasks == 1 && consumerTasks == 1;
            default:
                return false;
        }
    }

    /** The component whose executors run this component's tasks, or null if it has executors of its own. */
    public String fusedInto(String componentId) {
        return fusedInto.get(componentId);
    }

    /** True when at least one component runs fused into another. */
    public boolean any() {
        return !fusedInto.isEmpty();
    }

    public boolean isFused(String componentId) {
        return fusedInto.containsKey(componentId);
    }

    /** True when the component's executors each share a thread with the same-numbered executors of its slice set. */
    public boolean isSliced(String componentId) {
        return sliced.containsKey(componentId);
    }

    /** The slice set of a sliced component (an arbitrary number, equal within a set), or -1. */
    public int sliceSet(String componentId) {
        return sliceSet.getOrDefault(componentId, -1);
    }

    /**
     * How many direct-call edges lead to {@code componentId} at most on its thread: the fused edges from the component
     * whose executors run it, plus, for a sliced component at the head of that chain, the slice edges before it. 0 for
     * a component with executors of its own and outside any slice.
     */
    public int depth(String componentId) {
        int depth = 0;
        String top = componentId;
        for (String c = fusedInto.get(componentId); c != null; c = fusedInto.get(c)) {
            depth++;
            top = c;
        }
        return depth + sliced.getOrDefault(top, 0);
    }

    /** True when {@code componentId} is fused, directly or through other fused components, into {@code head}. */
    public boolean chainsInto(String componentId, String head) {
        String c = componentId;
        String p;
        while ((p = fusedInto.get(c)) != null) {
            if (p.equals(head)) {
                return true;
            }
            c = p;
        }
        return false;
    }
}
