package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import io.microburst.reliability.TupleTree;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.task.TreeLog;
import io.microburst.runtime.task.TupleScan;

/**
 * Where are my tuples: an acked topology's pending tuple trees grouped by the task that holds them (queued for it,
 * held by its bolt, or executing there), with their ages, and its last failed and timed-out trees with why and where
 * (the {@link TreeLog}). Found on demand by a {@link TreeSearch}; the same search, when a spout's timeout sweep expires
 * trees, names the task each timed out at.
 *
 * <p>Threading: {@link #snapshot} on any thread (it waits at most {@link #WAIT_MS} for the executors to answer);
 * {@link #traceTimedOut} on a spout's executor thread, which it never blocks.
 */
public final class TupleWhereabouts {
    /** How long a snapshot waits for executors to answer, and a trace before it reads the busy ones. */
    public static final long WAIT_MS = 200;
    /** How many trees each group shows, oldest first. */
    public static final int SAMPLE = 10;

    /** A pending tree: its root id, the message id as its spout gave it, and its age. */
    public record Tree(long rootId, String messageId, String spout, long ageMs, boolean ageExact, String state) {
    }

    /** The pending trees one task holds ({@code task} null: found in no queue). */
    public record Group(String task, int count, long oldestAgeMs, Map<String, Integer> states, List<Tree> sample) {
    }

    /**
     * @param busyThreads threads that did not answer within {@link #WAIT_MS}: inside a user call (their spouts' pending
     *                    trees are not listed)
     * @param longestPauseMicros the longest an executor's thread spent answering (walking its queues), its pause
     */
    public record Snapshot(int pendingTrees, List<Group> groups, List<String> busyThreads, List<TreeLog.Entry> recent,
                           long tookMicros, long longestPauseMicros) {
    }

    private TupleWhereabouts() {
    }

    /** A snapshot of the topology running on {@code threads}. Any thread; waits at most {@link #WAIT_MS}. */
    public static Snapshot snapshot(List<ThreadView> threads) throws InterruptedException {
        long start = System.nanoTime();
        Executor[] executors = threads.stream().map(t -> t.executor).toArray(Executor[]::new);
        CountDownLatch all = new CountDownLatch(1);
        TreeSearch search = new TreeSearch(executors, null, true, all::countDown);
        search.start();
        all.await(WAIT_MS, TimeUnit.MILLISECONDS);
        search.close();
        // grouped by holder (a task, or a label for several), with no object or string per tree beyond the sample
        Map<Object, List<TreeSearch.Pending>> byHolder = new LinkedHashMap<>();
        Map<Object, TreeSearch.Found> places = new IdentityHashMap<>();
        List<TreeSearch.Pending> pending = search.pending();
        for (TreeSearch.Pending p : pending) {
            TreeSearch.Found f = search.where(p.tree());
            Object key = f == null ? "" : f.holder() != null ? f.holder() : f.label();
            byHolder.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
            if (f != null) {
                places.putIfAbsent(key, f);
            }
        }
        List<Group> groups = new ArrayList<>();
        byHolder.forEach((key, trees) -> groups.add(group(places.get(key), trees, search)));
        groups.sort(Comparator.comparingInt(Group::count).reversed());
        TreeLog log = logOf(executors);
        List<TreeLog.Entry> recent = log == null ? List.of() : log.recent();
        return new Snapshot(pending.size(), groups, search.busy(), recent, (System.nanoTime() - start) / 1000,
            search.longestAnswerNanos() / 1000);
    }

    private static Group group(TreeSearch.Found place, List<TreeSearch.Pending> trees, TreeSearch search) {
        Collections.reverse(trees); // listed newest first: among equal ages, the older first
        trees.sort(Comparator.comparingLong(TreeSearch.Pending::ageNanos).reversed());
        Map<String, Integer> states = new LinkedHashMap<>();
        List<Tree> sample = new ArrayList<>();
        for (TreeSearch.Pending p : trees) {
            TreeSearch.Found f = search.where(p.tree());
            String state = f == null ? "not found" : state(f.how());
            states.merge(state, 1, Integer::sum);
            if (sample.size() < SAMPLE) {
                sample.add(new Tree(p.tree().rootId(), String.valueOf(p.tree().messageId()), spoutOf(p.tree()),
                    p.ageNanos() < 0 ? -1 : p.ageNanos() / 1_000_000, p.exact(), state));
            }
        }
        return new Group(place == null ? null : place.label(), trees.size(), sample.get(0).ageMs(), states, sample);
    }

    /**
     * A spout's sweep expired {@code trees}: finds the task that last held each and records it with why in the log,
     * once every executor answered or after {@link #WAIT_MS} (then on the timer's thread). Never blocks the caller.
     */
    static void traceTimedOut(Executor[] executors, List<TupleTree> trees, TreeLog log, SharedTimer timer) {
        Set<TupleTree> wanted = Collections.newSetFromMap(new IdentityHashMap<>());
        wanted.addAll(trees);
        AtomicBoolean done = new AtomicBoolean();
        TreeSearch[] search = new TreeSearch[1];
        Runnable finish = () -> {
            if (done.compareAndSet(false, true)) {
                search[0].close();
                for (TupleTree tree : trees) {
                    TreeSearch.Found f = search[0].where(tree);
                    log.record(tree, timedOutReason(f), f == null ? null : f.label());
                }
            }
        };
        search[0] = new TreeSearch(executors, wanted, false, finish);
        search[0].start();
        try {
            timer.after(WAIT_MS, finish);
        } catch (RejectedExecutionException stopping) {
            finish.run(); // the timer is closing with the cluster: record what the answers so far show
        }
    }

    static String timedOutReason(TreeSearch.Found f) {
        if (f == null) {
            return "timed out; found in no queue (between threads, or completing)";
        }
        return switch (f.how()) {
            case TupleScan.QUEUED -> "timed out while queued at " + f.label();
            case TupleScan.HELD -> "timed out while held by " + f.label() + " (executed, neither acked nor failed)";
            default -> "timed out while executing at " + f.label();
        };
    }

    private static String state(int how) {
        return switch (how) {
            case TupleScan.QUEUED -> "queued";
            case TupleScan.HELD -> "held";
            default -> "executing";
        };
    }

    private static String spoutOf(TupleTree tree) {
        return tree.owner() instanceof TaskRunner t ? TreeLog.name(t) : "";
    }

    private static TreeLog logOf(Executor[] executors) {
        for (Executor e : executors) {
            for (TaskRunner t : e.tasks()) {
                return TreeLog.of(t);
            }
        }
        return null;
    }
}
