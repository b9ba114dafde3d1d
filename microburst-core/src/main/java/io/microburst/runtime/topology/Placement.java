package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import io.microburst.config.ConfigKeys;
import io.microburst.plan.ComponentPlan;
import io.microburst.plan.FusionPlan;
import io.microburst.plan.StreamPlan;
import io.microburst.plan.Subscription;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.executor.ExecutorHost;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.Inbox;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.Switchboard;
import io.microburst.runtime.task.TaskHost;
import io.microburst.runtime.task.TaskRunner;
import org.apache.storm.metric.api.IMetric;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where every task runs now: the executors built from a {@link ThreadLayout}, the tasks by id, and the changes a
 * running topology makes to them: an executor added for a fused task that moves (defusion), and taken away again when
 * those tasks move back (an undone cut, see {@link CutReturn}). Also publishes which
 * executors can feed each other back ({@link #cycleGroups}), since that depends on where tasks run.
 *
 * <p>Threading: any thread reads; {@link #build} runs under the lifecycle's lock before threads start, and
 * {@link #add} and {@link #moveBack} on the executor thread a task leaves, under this object's lock, against a concurrent
 * {@link #haltAndList}.
 */
final class Placement {
    private static final Logger LOG = LoggerFactory.getLogger(Placement.class);
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
    /** How many more tasks may leave a shared thread for one of their own (the thread budget, once); under the lock. */
    private int carrierMovesLeft;
    private boolean carrierMovesWarned;

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

    /**
     * Builds an executor and its tasks for each group of the layout, and publishes them; no thread starts. With more
     * groups than the thread budget, each executor is a carrier of several groups ({@link ThreadLayout#share}): a
     * tuple between two tasks of one carrier is then a direct call, as in a fused chain, unless the consumer lies on
     * a cycle (a call could come back into a task already executing), where it goes through the local queue; either
     * way a carrier never waits on itself.
     */
    Executor[] build(TopologyPlan plan, FusionPlan fusion) {
        List<List<ThreadLayout.Member>> groups = ThreadLayout.groups(plan, fusion);
        int budget = ThreadLayout.threadBudget(plan.conf(), Runtime.getRuntime().availableProcessors());
        boolean shared = groups.size() > budget;
        Map<String, Integer> ranks = Map.of();
        Map<String, Boolean> direct = new HashMap<>();
        if (shared) {
            LOG.info("Topology {}: {} executor groups share {} threads ({} = {})", topologyName, groups.size(), budget,
                ConfigKeys.EXECUTOR_THREADS_MAX, budget);
            groups = ThreadLayout.share(groups, budget);
            ranks = StopSequence.ranks(plan);
            this.carrierMovesLeft = budget;
        }
        List<Executor> list = new ArrayList<>();
        List<List<TaskRunner>> runners = new ArrayList<>();
        BoltTask[] bolts = new BoltTask[plan.maxTaskId() + 1];
        TaskRunner[] byTask = new TaskRunner[plan.maxTaskId() + 1];
        for (List<ThreadLayout.Member> group : groups) {
            String name = shared ? ThreadLayout.carrierName(topologyName, list.size(), groups.size())
                : ThreadLayout.executorName(topologyName, group);
            Executor e = new Executor(executorHost, board, list.size(), name, queueSize, batchSize);
            if (shared) {
                e.makeCarrier();
            }
            List<TaskRunner> tasks = new ArrayList<>();
            for (ThreadLayout.Member member : group) {
                ComponentPlan c = member.component();
                int taskId = member.taskId();
                TaskRunner runner;
                if (c.isSpout()) {
                    runner = new SpoutTask(taskHost, e.inbox(), e.outbox(), c, taskId);
                } else {
                    boolean planned = fusion.isFused(c.id()) || fusion.isSliced(c.id());
                    boolean call = planned
                        || shared && direct.computeIfAbsent(c.id(), id -> !plan.onCycle(id, id));
                    BoltTask b = new BoltTask(taskHost, e.inbox(), e.outbox(), c, taskId, call,
                        planned ? fusion.depth(c.id()) : ranks.getOrDefault(c.id(), 0));
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
        for (int i = 0; i < all.length; i++) {
            all[i].setTasks(runners.get(i), loader);
        }
        board.publish(inboxes(all), cycleGroups());
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
            if (from.isCarrier()) {
                if (carrierMovesLeft == 0) {
                    if (!carrierMovesWarned) {
                        carrierMovesWarned = true;
                        LOG.warn("Topology {}: {} stays on shared thread {}: as many tasks as the thread budget have "
                            + "left shared threads already, and no more will", topologyName,
                            moving.get(0).componentId() + "[" + moving.get(0).taskId() + "]", from);
                    }
                    return null;
                }
                carrierMovesLeft--;
            }
            Executor[] old = executors;
            List<ThreadLayout.Member> group = new ArrayList<>();
            for (TaskRunner t : moving) {
                group.add(new ThreadLayout.Member(t.component(), t.taskId()));
            }
            Executor e = new Executor(executorHost, board, old.length, ThreadLayout.executorName(topologyName, group),
                queueSize, batchSize);
            Executor[] grown = Arrays.copyOf(old, old.length + 1);
            grown[old.length] = e;
            // The new inbox is published before any link points to it: a thread of the user's own (a ShellBolt's
            // reader) may send over a moving task's link at any moment. Until the groups are recomputed below, the new
            // executor counts as on a cycle with the one it leaves, the stale answer that never blocks.
            int[] groups = board.cycleGroups();
            int[] provisional = Arrays.copyOf(groups, grown.length);
            provisional[old.length] = from.index() < groups.length ? groups[from.index()] : -1;
            board.publish(inboxes(grown), provisional);
            e.adoptStartedTasks();
            for (TaskRunner t : moving) {
                move(t, from, e);
            }
            executors = grown;
            board.publish(inboxes(grown), cycleGroups());
            e.setTasks(moving, loader);
            e.createThread();
            return e;
        }
    }

    /**
     * The reverse of {@link #add}, for a cut undone: every task of {@code away} moves back onto {@code home}, the
     * executor it came from, keeping its instance, state and statistics, and {@code away} runs none. Runs on the thread
     * of {@code away}, between turns, while {@code home}'s thread waits for it; {@link #retire} follows.
     *
     * @return the tasks that moved
     */
    TaskRunner[] moveBack(Executor away, Executor home) {
        synchronized (lock) {
            TaskRunner[] moving = away.tasks();
            for (TaskRunner t : moving) {
                move(t, away, home);
            }
            away.runTasks(new TaskRunner[0]);
            if (home.isCarrier()) {
                carrierMovesLeft++;
            }
            return moving;
        }
    }

    /**
     * {@code away}, whose tasks moved back ({@link #moveBack}), leaves the list: it shrinks back when {@code away} was
     * the last executor added (the usual case); otherwise {@code away} stays in it, empty and stopped, so every other
     * executor keeps its index. Its inbox stays published at its index until another executor takes that index, so a
     * thread of the user's own that read a link just before the move still finds it. The thread the tasks moved to.
     */
    void retire(Executor away) {
        synchronized (lock) {
            Executor[] old = executors;
            boolean last = away.index() == old.length - 1 && old[away.index()] == away;
            if (last) {
                executors = Arrays.copyOf(old, old.length - 1);
            }
            int[] groups = Arrays.copyOf(cycleGroups(), old.length);
            if (last) {
                groups[away.index()] = -1; // no executor, no cycle
            }
            board.publish(inboxes(old), groups);
        }
    }

    /** {@code t} runs on {@code to} from now on, with the IMetrics it registered on {@code from}; under the lock. */
    private static void move(TaskRunner t, Executor from, Executor to) {
        for (Map.Entry<Integer, Map<Integer, Map<String, IMetric>>> bucket : from.registeredMetrics().entrySet()) {
            Map<String, IMetric> metrics = bucket.getValue().remove(t.taskId());
            if (metrics != null) {
                to.registeredMetrics().computeIfAbsent(bucket.getKey(), k -> new HashMap<>()).put(t.taskId(), metrics);
            }
        }
        t.moveTo(to.inbox(), to.outbox());
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
        return executors[task.inbox().index()];
    }

    Inbox inboxOfTask(int taskId) {
        return tasksById[taskId].inbox();
    }

    /**
     * The strongly connected groups of the executor graph as tasks run now (see {@link CycleGroups}): executors of one
     * group can send, through some chain of executors, to each other, so a full queue between them must not block, or
     * each could wait for the other. Tasks of components on a cycle make such executors; so do slices, which send to
     * each other both ways, and a task moved out of a slice. Each subscription is one vertex between its producer
     * and consumer executors, so the graph has as many edges as tasks have subscriptions plus consumer tasks, not
     * producers times consumers.
     */
    private int[] cycleGroups() {
        int n = executors.length;
        TaskRunner[] byTask = tasksById;
        Map<Subscription, Integer> hubs = new IdentityHashMap<>();
        List<int[]> edges = new ArrayList<>();
        for (TaskRunner t : byTask) {
            if (t == null) {
                continue;
            }
            for (StreamPlan s : t.component().streams().values()) {
                for (Subscription sub : s.subscriptions()) {
                    Integer hub = hubs.get(sub);
                    if (hub == null) {
                        hub = n + hubs.size();
                        hubs.put(sub, hub);
                        for (int consumer : sub.consumer().taskIds()) {
                            edges.add(new int[] {hub, byTask[consumer].inbox().index()});
                        }
                    }
                    edges.add(new int[] {t.inbox().index(), hub});
                }
            }
        }
        return Arrays.copyOf(CycleGroups.of(n + hubs.size(), edges), n);
    }
}
