package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import io.microburst.config.ConfigKeys;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Balancer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.Config;
import org.apache.storm.utils.ObjectReader;

/**
 * The topology's entries on the cluster's one timer thread. The timer never runs user code: each entry posts a
 * command to the executor that runs the tasks concerned when it fires (tick tuples, timeout rotation, IMetric
 * collection, max-pending tuning, pipelining checks, stamping queued trees), so every user callback runs on its task's
 * own thread. A tick follows its task if the task moves. What a Storm user can see the timing of (tick tuples, message
 * timeouts and the stamping that goes with them, IMetric collection) is on Storm's clock, simulated when the cluster
 * simulates time (see {@link SharedTimer#onStormClock}); Microburst's own housekeeping stays on the wall clock.
 *
 * <p>Threading: any thread (executor threads schedule for tasks they start or move); entries are kept in a
 * concurrent list so that a stop can cancel them all.
 */
final class TopologyTimers {
    private final TopologyPlan plan;
    private final SharedTimer timer;
    private final MetricsWiring metrics;
    private final boolean acking;
    private final boolean timeouts;
    private final int timeoutSecs;
    private final List<ScheduledFuture<?>> schedules = new CopyOnWriteArrayList<>();
    /** The entries that post to one executor, so that an executor that goes away (an undone cut) takes them along. */
    private final Map<Executor, List<ScheduledFuture<?>>> byExecutor = new ConcurrentHashMap<>();
    private final Set<Long> scheduledBuckets = ConcurrentHashMap.newKeySet();
    /** Set when the topology stopped for good: anything scheduled afterwards is cancelled at once. */
    private volatile boolean closed;

    TopologyTimers(TopologyPlan plan, SharedTimer timer, MetricsWiring metrics, boolean acking, boolean timeouts,
        int timeoutSecs) {
        this.plan = plan;
        this.timer = timer;
        this.metrics = metrics;
        this.acking = acking;
        this.timeouts = timeouts;
        this.timeoutSecs = timeoutSecs;
    }

    /** The cluster's timer (its thread runs no user code). */
    SharedTimer timer() {
        return timer;
    }

    /** Schedules the timers of freshly launched executors. */
    void scheduleAll(Executor[] executors, FusionPlan fusion) {
        Map<Integer, List<BoltTask>> byFrequency = new HashMap<>();
        for (Executor e : executors) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof BoltTask b) {
                    Object freq = t.component().conf().get(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS);
                    if (freq != null && ObjectReader.getInt(freq) > 0) {
                        byFrequency.computeIfAbsent(ObjectReader.getInt(freq), k -> new ArrayList<>()).add(b);
                    }
                }
            }
            scheduleExecutor(e, fusion);
        }
        // A tick goes to whichever executor runs its task when it fires (a task can move, see Placement#add).
        byFrequency.forEach((freq, bolts) -> schedules.add(timer.onStormClock(freq * 1000L, freq * 1000L, () -> {
            for (BoltTask b : bolts) {
                b.inbox().postForTask(b, () -> b.executeTick(freq));
            }
        })));
    }

    /** Timers whose work covers the tasks an executor runs at the time they fire. */
    void scheduleExecutor(Executor e, FusionPlan fusion) {
        List<SpoutTask> spouts = new ArrayList<>();
        for (TaskRunner t : e.tasks()) {
            if (t instanceof SpoutTask s) {
                spouts.add(s);
            }
        }
        if (metrics.builtinsObserved()) {
            long period = MetricsWiring.BUILTIN_UPDATE_MS;
            add(e, timer.every(period, period, () -> metrics.updateBuiltins(e)));
        }
        int v2Interval = metrics.v2IntervalSecs();
        if (v2Interval >= 0) {
            long periodMs = Math.max(1, v2Interval) * 1000L;
            add(e, timer.every(periodMs, periodMs, () -> e.post(() -> metrics.collectV2(e, v2Interval))));
        }
        List<SpoutTask> tuned = spouts.stream().filter(SpoutTask::autoTuned).toList();
        if (!tuned.isEmpty() && acking) {
            long period = 1000L * ObjectReader.getInt(
                plan.conf().get(ConfigKeys.MAX_SPOUT_PENDING_AUTOTUNE_SECS), 120);
            add(e, timer.every(period, period, () -> e.post(() -> tuned.forEach(SpoutTask::autoTune))));
        }
        if (fusion != null && fusion.any()) {
            add(e, timer.every(Balancer.BALANCE_PERIOD_MS, Balancer.BALANCE_PERIOD_MS, () -> e.post(e::balance)));
        }
        if (acking && timeouts) {
            long half = Math.max(100, timeoutSecs * 500L);
            add(e, timer.onStormClock(half, half, () -> e.post(e::touchQueued)));
        }
        if (!spouts.isEmpty() && acking && timeouts) {
            long period = timeoutSecs * 1000L;
            long nanos = TimeUnit.SECONDS.toNanos(timeoutSecs);
            add(e, timer.onStormClock(period, period, () -> e.post(() -> spouts.forEach(s -> s.rotate(nanos)))));
        }
        cancelIfClosed();
    }

    /** After a task opened or prepared on {@code e}: schedules collection of the IMetric buckets it registered. */
    void scheduleMetrics(Executor e) {
        for (Integer bucket : e.registeredMetrics().keySet()) {
            long key = ((long) e.index() << 32) | bucket;
            if (metrics.isEmpty() || !scheduledBuckets.add(key)) {
                continue;
            }
            long periodMs = bucket * 1000L;
            add(e, timer.onStormClock(periodMs, periodMs, () -> e.post(() -> metrics.collect(e, bucket))));
            cancelIfClosed();
        }
    }

    private void add(Executor e, ScheduledFuture<?> f) {
        schedules.add(f);
        byExecutor.computeIfAbsent(e, k -> new CopyOnWriteArrayList<>()).add(f);
    }

    /** Cancels the entries that post to {@code e}, which runs no task any more (see {@link CutReturn}). */
    void cancelExecutor(Executor e) {
        List<ScheduledFuture<?>> mine = byExecutor.remove(e);
        if (mine != null) {
            for (ScheduledFuture<?> f : mine) {
                f.cancel(false);
            }
            schedules.removeAll(mine);
        }
        scheduledBuckets.removeIf(key -> (int) (key >>> 32) == e.index());
    }

    /** Cancels every entry; the topology's executors are being replaced (rebalance). */
    void cancelAll() {
        for (ScheduledFuture<?> f : schedules) {
            f.cancel(false);
        }
        schedules.clear();
        byExecutor.clear();
        scheduledBuckets.clear();
    }

    /** Cancels every entry for good: the topology stopped. */
    void close() {
        closed = true;
        cancelAll();
    }

    private void cancelIfClosed() {
        if (closed) {
            cancelAll();
        }
    }
}
