package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import io.microburst.config.ConfigKeys;
import io.microburst.metrics.ErrorLog;
import io.microburst.metrics.TaskStats;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.DecisionCheck;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.ParallelismPolicy;
import io.microburst.plan.Subscription;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Automatic parallelism ({@link ConfigKeys#PARALLELISM} = auto): every {@link ConfigKeys#PARALLELISM_INTERVAL_SECS}
 * seconds, measures each component over the interval (tuples executed and emitted, useful time) and asks
 * {@link ParallelismPolicy} for executor counts; when they differ, rebalances the topology to them, as Storm's
 * rebalance would. At most {@link #MAX_DECISIONS} decisions; it stops earlier once a decision changes nothing. Each
 * decision is logged with the rates behind it and recorded among the topology's errors (component {@code __system}),
 * where {@code getTopologyInfo} and the UI show it beside the executor counts.
 *
 * <p>Every step is checked by its outcome: the interval after the new executors' warm-up is measured as the one that
 * decided was (the topology's tuples a second, executed and emitted, and its spouts' mean complete latency), and
 * {@link DecisionCheck#judge} keeps the step or undoes it (a rebalance back to the counts before it); after an undo
 * automatic parallelism is done, so the same step is not tried again.
 *
 * <p>Useful time: a bolt task's sampled mean execute time times the tuples it executed, less that of the tasks fused
 * into it (which run inside its execute); a spout task's, its executor's time over the interval neither parked nor
 * waiting for room in a full queue (backpressure), less its bolts' useful time.
 * Bolts called directly from a slice's spout are counted in both, so a sliced spout's share is understated.
 *
 * <p>Threading: runs on the topology's timer thread; reads counters written by executor threads (a stale read only
 * shifts a sample into the next interval).
 */
final class AutoParallelism {
    private static final Logger LOG = LoggerFactory.getLogger(AutoParallelism.class);
    /** Decisions at most; DS2 converges in three when the true rates hold. */
    static final int MAX_DECISIONS = 3;
    private static final int CORES = Runtime.getRuntime().availableProcessors();
    /** The least useful time a spout is given per interval (it has nextTuple calls, so it took some time). */
    private static final long MIN_SPOUT_NANOS = 1_000;

    private final TopologyPlan plan;
    private final Supplier<Executor[]> executors;
    private final Supplier<FusionPlan> fusion;
    private final ErrorLog errors;
    private final Consumer<Map<String, Integer>> rebalance;
    private final BooleanSupplier active;
    private final long intervalMs;
    /** Whether the runtime may fuse, and so run components of equal executor counts as slices. */
    private final boolean slices;
    private Executor[] measuredOn;
    private Map<Integer, long[]> lastTasks = new HashMap<>();
    private Map<Executor, long[]> lastExecutors = new HashMap<>();
    /** The interval that decided the step being checked, and the counts before it; null when none is. */
    private DecisionCheck.Outcome checkedBefore;
    private Map<String, Integer> countsBefore;
    private long lastMeasureNanos;
    /** The last interval's outcome (see {@link #measure}). */
    private DecisionCheck.Outcome lastOutcome;
    private volatile int decisions;
    private volatile boolean done;
    private ScheduledFuture<?> schedule;

    AutoParallelism(TopologyPlan plan, Supplier<Executor[]> executors, Supplier<FusionPlan> fusion, ErrorLog errors,
        Consumer<Map<String, Integer>> rebalance, BooleanSupplier active) {
        this.plan = plan;
        this.executors = executors;
        this.fusion = fusion;
        this.errors = errors;
        this.rebalance = rebalance;
        this.active = active;
        this.intervalMs = 1000L * Math.max(1, ObjectReader.getInt(plan.conf().get(ConfigKeys.PARALLELISM_INTERVAL_SECS), 10));
        this.slices = ObjectReader.getBoolean(plan.conf().get(ConfigKeys.FUSION), true);
    }

    /** Starts measuring; the first decision comes after two intervals (the first is a warm-up). */
    void start(SharedTimer timer) {
        schedule = timer.every(intervalMs, intervalMs, this::tick);
    }

    void stop() {
        if (schedule != null) {
            schedule.cancel(false);
        }
    }

    /** Decisions made so far. */
    int decisions() {
        return decisions;
    }

    /** True once it decided to change nothing, or made its last decision. */
    boolean done() {
        return done;
    }

    private synchronized void tick() {
        if (done) {
            return;
        }
        Executor[] now = executors.get();
        if (!active.getAsBoolean()) {
            measuredOn = null; // deactivated or rebalancing: nothing to measure until it runs again
            return;
        }
        if (now != measuredOn) {
            // new executors (start or rebalance): this interval is a warm-up, the next one is measured
            measuredOn = now;
            lastTasks = new HashMap<>();
            lastExecutors = new HashMap<>();
            measure(now);
            return;
        }
        List<ParallelismPolicy.Component> components = measure(now);
        if (checkedBefore != null) {
            DecisionCheck.Verdict v = DecisionCheck.judge(checkedBefore, lastOutcome, 1);
            checkedBefore = null;
            if (!v.keep()) {
                record("decision " + decisions + " checked: " + v.reason() + "; back to " + countsBefore
                    + ", and automatic parallelism is done");
                done = true;
                rebalance.accept(countsBefore);
                return;
            }
            record("decision " + decisions + " checked: " + v.reason());
            if (decisions >= MAX_DECISIONS) {
                done = true;
                return;
            }
        }
        ParallelismPolicy.Decision d = ParallelismPolicy.decide(components, CORES, slices);
        decisions++;
        String reason = "decision " + decisions + " of at most " + MAX_DECISIONS + ", " + d.reason();
        if (!d.changed()) {
            record(reason + "; no change, so automatic parallelism is done");
            done = true;
            return;
        }
        record(reason + "; rebalancing");
        checkedBefore = lastOutcome;
        countsBefore = new LinkedHashMap<>();
        for (ParallelismPolicy.Component c : components) {
            countsBefore.put(c.id(), c.executors());
        }
        rebalance.accept(d.executors());
        // the last step is checked too: done only once its check has passed
    }

    private void record(String reason) {
        LOG.info("Topology {}: {}", plan.name(), reason);
        errors.add(TopologyRuntime.ERRORS_OF_THE_RUNTIME, -1, new ParallelismDecision(reason));
    }

    /** Per component, what its tasks did since the last call; also keeps the counters for the next one. */
    private List<ParallelismPolicy.Component> measure(Executor[] now) {
        FusionPlan f = fusion.get();
        Map<String, long[]> byComponent = new LinkedHashMap<>(); // executed, emitted, useful
        for (ComponentPlan c : plan.components().values()) {
            byComponent.put(c.id(), new long[3]);
        }
        Map<Integer, long[]> tasksNow = new HashMap<>();
        Map<Executor, long[]> executorsNow = new HashMap<>();
        long tuples = 0;
        long completeNanos = 0;
        long completeSamples = 0;
        long startNanos = System.nanoTime();
        for (Executor e : now) {
            long[] timesNow = {System.nanoTime(), e.parkedNanos() + e.blockedNanos()};
            long[] timesBefore = lastExecutors.getOrDefault(e, timesNow);
            executorsNow.put(e, timesNow);
            long busy = Math.max(0, timesNow[0] - timesBefore[0] - (timesNow[1] - timesBefore[1]));
            Map<String, Long> spent = new HashMap<>();
            List<TaskRunner> spouts = new ArrayList<>();
            for (TaskRunner t : e.tasks()) {
                long[] counters = counters(t.stats());
                long[] before = lastTasks.getOrDefault(t.taskId(), new long[6]);
                tasksNow.put(t.taskId(), counters);
                long executed = counters[0] - before[0];
                long samples = counters[2] - before[2];
                long nanos = counters[1] - before[1];
                long mean = samples > 0 ? nanos / samples : counters[2] > 0 ? counters[1] / counters[2] : 0;
                long[] sums = byComponent.get(t.componentId());
                sums[0] += executed;
                sums[1] += counters[3] - before[3];
                tuples += executed + counters[3] - before[3];
                completeNanos += counters[4] - before[4];
                completeSamples += counters[5] - before[5];
                if (t instanceof SpoutTask) {
                    spouts.add(t);
                } else {
                    spent.merge(t.componentId(), mean * executed, Long::sum);
                }
            }
            long bolts = 0;
            for (Map.Entry<String, Long> s : spent.entrySet()) {
                long self = s.getValue();
                for (Map.Entry<String, Long> inner : spent.entrySet()) {
                    if (s.getKey().equals(f.fusedInto(inner.getKey()))) {
                        self -= inner.getValue();
                    }
                }
                self = Math.max(0, self);
                byComponent.get(s.getKey())[2] += self;
                bolts += self;
            }
            for (TaskRunner s : spouts) {
                // a spout held back by its consumers all the time shows no time of its own: far faster than them
                byComponent.get(s.componentId())[2] += Math.max(MIN_SPOUT_NANOS, (busy - bolts) / spouts.size());
            }
        }
        double seconds = lastMeasureNanos == 0 ? intervalMs / 1000.0 : (startNanos - lastMeasureNanos) / 1e9;
        lastMeasureNanos = startNanos;
        lastOutcome = new DecisionCheck.Outcome(tuples / Math.max(1e-3, seconds),
            completeSamples > 0 ? (double) completeNanos / completeSamples : -1);
        lastTasks = tasksNow;
        lastExecutors = executorsNow;
        List<ParallelismPolicy.Component> out = new ArrayList<>();
        for (ComponentPlan c : plan.components().values()) {
            long[] sums = byComponent.get(c.id());
            List<String> inputs = new ArrayList<>();
            for (Subscription in : c.inputs()) {
                String producer = in.stream().componentId();
                if (plan.components().containsKey(producer) && !inputs.contains(producer)) {
                    inputs.add(producer);
                }
            }
            out.add(new ParallelismPolicy.Component(c.id(), c.isSpout(), inputs, c.taskIds().size(), c.executors(),
                c.isSpout() ? 0 : sums[0], sums[1], sums[2]));
        }
        return out;
    }

    /**
     * executed, sampled execute nanos, samples, emitted on the task's own streams, sampled complete latency nanos and
     * samples.
     */
    private static long[] counters(TaskStats s) {
        long emitted = 0;
        for (int i = 0; i < s.outStreamCount(); i++) {
            if (!s.outStream(i).startsWith("__")) {
                emitted += s.emitted(i);
            }
        }
        return new long[] {s.executedTotal(), s.executeNanosTotal(), s.executeSamplesTotal(), emitted,
            s.completeNanosTotal(), s.completeSamplesTotal()};
    }

    /** A decision, as shown among the topology's errors: the message is all, there is no stack to show. */
    static final class ParallelismDecision extends Exception {
        private static final long serialVersionUID = 1L;

        ParallelismDecision(String reason) {
            super(reason, null, false, false);
        }
    }
}
