package io.microburst.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.StreamPlan;
import io.microburst.plan.Subscription;
import io.microburst.plan.TopologyPlan;
import org.apache.storm.metric.api.IMetric;

/**
 * Where every task runs now: the executors built from a {@link ThreadLayout}, the tasks by id, and the one change a
 * running topology makes to them, an executor added for a fused task that moves (defusion). Also answers which
 * executors can feed each other back ({@link #cycleFlags}), since that depends on where tasks run.
 *
 * <p>Threading: any thread reads; {@link #build} runs under the lifecycle's lock before threads start, and
 * {@link #add} on the executor thread a task leaves, under this object's lock, against a concurrent
 * {@link #haltAndList}.
 */
final class Placement {
    private final String topologyName;
    private final Switchboard board;
    private final TaskHost taskHost;
    private final ExecutorHost executorHost;
    private final ClassLoader loader;
    private final int queueSize;
    private final int batchSize;
    private final Object lock = new Object();
    private volatile Executor[] executors = new Executor[0];
    private volatile BoltTask[] boltsByTask = new BoltTask[0];
    private volatile TaskRunner[] tasksById = new TaskRunner[0];

    Placement(String topologyName, Switchboard board, TaskHost taskHost, ExecutorHost executorHost, ClassLoader loader,
        int queueSize, int batchSize) {
        this.topologyName = topologyName;
        this.board = board;
        this.taskHost = taskHost;
        this.executorHost = executorHost;
        this.loader = loader;
        this.queueSize = queueSize;
        this.batchSize = batchSize;
    }

    /** Builds an executor and its tasks for each group of the layout, and publishes them; no thread starts. */
    Executor[] build(TopologyPlan plan, FusionPlan fusion) {
        List<List<ThreadLayout.Member>> groups = ThreadLayout.groups(plan, fusion);
        List<Executor> list = new ArrayList<>();
        List<List<TaskRunner>> runners = new ArrayList<>();
        BoltTask[] bolts = new BoltTask[plan.taskCount() + 1];
        TaskRunner[] byTask = new TaskRunner[plan.taskCount() + 1];
        for (List<ThreadLayout.Member> group : groups) {
            Executor e = new Executor(executorHost, board, list.size(), ThreadLayout.executorName(topologyName, group),
                queueSize, batchSize);
            List<TaskRunner> tasks = new ArrayList<>();
            for (ThreadLayout.Member member : group) {
                ComponentPlan c = member.component();
                int taskId = member.taskId();
                TaskRunner runner;
                if (c.isSpout()) {
                    runner = new SpoutTask(taskHost, e.inbox(), e.outbox(), c, taskId);
                } else {
                    BoltTask b = new BoltTask(taskHost, e.inbox(), e.outbox(), c, taskId,
                        fusion.isFused(c.id()) || fusion.isSliced(c.id()), fusion.depth(c.id()));
                    bolts[taskId] = b;
                    runner = b;
                }
                byTask[taskId] = runner;
                tasks.add(runner);
            }
            list.add(e);
            runners.add(tasks);
        }
        this.boltsByTask = bolts;
        this.tasksById = byTask;
        Executor[] all = list.toArray(new Executor[0]);
        this.executors = all;
        int[] cycleGroups = cycleGroups();
        for (int i = 0; i < all.length; i++) {
            all[i].setTasks(runners.get(i), all.length, CycleGroups.flags(i, cycleGroups), loader);
        }
        board.publish(inboxes(all), this::cycleFlags);
        return all;
    }

    /**
     * Adds an executor for {@code moving} (a fused task and the tasks fused into it), which keep their instances,
     * state and statistics; its thread is made but not started. Runs on the thread of {@code from}, between turns.
     *
     * @return the new executor, or null when the topology is stopping
     */
    Executor add(Executor from, List<TaskRunner> moving) {
        synchronized (lock) {
            if (board.isHalted()) {
                return null;
            }
            Executor[] old = executors;
            List<ThreadLayout.Member> group = new ArrayList<>();
            for (TaskRunner t : moving) {
                group.add(new ThreadLayout.Member(t.component, t.taskId));
            }
            Executor e = new Executor(executorHost, board, old.length, ThreadLayout.executorName(topologyName, group),
                queueSize, batchSize);
            Executor[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = e;
            // published before any link names the new index: a thread of user code (a ShellBolt's reader) may emit
            // over a moved link at any time
            executors = grown;
            board.publish(inboxes(grown), this::cycleFlags);
            e.adoptStartedTasks();
            for (TaskRunner t : moving) {
                for (Map.Entry<Integer, Map<Integer, Map<String, IMetric>>> bucket : from.registeredMetrics.entrySet()) {
                    Map<String, IMetric> metrics = bucket.getValue().remove(t.taskId);
                    if (metrics != null) {
                        e.registeredMetrics.computeIfAbsent(bucket.getKey(), k -> new HashMap<>()).put(t.taskId, metrics);
                    }
                }
                t.moveTo(e.inbox(), e.outbox());
            }
            e.setTasks(moving, grown.length, CycleGroups.flags(e.index, cycleGroups()), loader);
            e.createThread();
            return e;
        }
    }

    /** Marks the topology halted (no executor is added after this) and returns the executors to stop. */
    Executor[] haltAndList() {
        synchronized (lock) {
            board.setHalted(true);
            return executors;
        }
    }

    private static Inbox[] inboxes(Executor[] all) {
        Inbox[] inboxes = new Inbox[all.length];
        for (int i = 0; i < all.length; i++) {
            inboxes[i] = all[i].inbox();
        }
        return inboxes;
    }

    /** The executors, as running now. */
    Executor[] executors() {
        return executors;
    }

    BoltTask bolt(int taskId) {
        return boltsByTask[taskId];
    }

    /** The executor running a task now. */
    Executor executorOf(TaskRunner task) {
        return executors[task.inbox.index];
    }

    Inbox inboxOfTask(int taskId) {
        return tasksById[taskId].inbox;
    }

    /**
     * For each executor, whether it can send, through any chain of executors, back to executor {@code from}: then a
     * full queue from {@code from} to it must not block, or each could wait for the other. Tasks of components on a
     * cycle make such executors; so do slices, which send to each other both ways, and a task moved out of a slice.
     * Any thread; reads where every task runs now (a move only splits an executor, so a stale answer is one that still
     * says true).
     */
    boolean[] cycleFlags(int from) {
        synchronized (lock) {
            return CycleGroups.flags(from, cycleGroups());
        }
    }

    /** The strongly connected groups of the executor graph as tasks run now (see {@link CycleGroups}). */
    private int[] cycleGroups() {
        int n = executors.length;
        BitSet[] out = new BitSet[n];
        BitSet[] in = new BitSet[n];
        for (int i = 0; i < n; i++) {
            out[i] = new BitSet(n);
            in[i] = new BitSet(n);
        }
        TaskRunner[] byTask = tasksById;
        for (TaskRunner t : byTask) {
            if (t == null) {
                continue;
            }
            int a = t.inbox.index;
            for (StreamPlan s : t.component.streams().values()) {
                for (Subscription sub : s.subscriptions()) {
                    for (int consumer : sub.consumer().taskIds()) {
                        int b = byTask[consumer].inbox.index;
                        out[a].set(b);
                        in[b].set(a);
                    }
                }
            }
        }
        return CycleGroups.of(out, in);
    }
}
