package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import io.microburst.reliability.TupleTree;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.task.TreeLog;
import io.microburst.runtime.task.TupleScan;

/**
 * One search for the tuples of pending tuple trees over a topology's executors: each executor is sent a command that
 * scans its own queues (and lists its spouts' pending trees) on its own thread at its next turn, between user calls
 * ({@link TupleScan#ofExecutor}); an executor whose thread is inside a user call cannot answer, and after the bounded
 * wait {@link #close} reads what another thread may read of its inbox ({@link TupleScan#ofBusyInbox}) and counts the
 * trees found nowhere else as executing there. Nothing is kept or stamped per tuple: the cost is this walk, once per
 * search, proportional to the tuples waiting or held.
 *
 * <p>Threading: made and closed by the searching thread; answers come from the executors' threads, under this object's
 * lock; an answer after {@link #close} is dropped.
 */
final class TreeSearch {
    /**
     * Where a tree's tuple was found: the holding task and how ({@link TupleScan}'s constants); {@code label} names
     * the place when it is not one task (null: the holder's name, made only when asked).
     */
    record Found(TaskRunner holder, int how, String label) {
        @Override
        public String label() {
            return label != null ? label : TreeLog.name(holder);
        }
    }

    /** A spout's pending tree with its age ({@code -1}: not known). */
    record Pending(TupleTree tree, long ageNanos, boolean exact) {
    }

    private final Executor[] executors;
    private final boolean[] answered;
    /** The trees looked for; null: every tree found. */
    private final Set<TupleTree> wanted;
    private final boolean listPending;
    private final Map<TupleTree, Found> found = new IdentityHashMap<>();
    private final List<Answer> answers = new ArrayList<>();
    private long longestAnswerNanos;
    private final List<Pending> pending = new ArrayList<>();
    private final AtomicInteger remaining;
    private final Runnable whenAllAnswered;
    private boolean closed;
    private final List<String> busy = new ArrayList<>();

    TreeSearch(Executor[] executors, Set<TupleTree> wanted, boolean listPending, Runnable whenAllAnswered) {
        this.executors = executors;
        this.answered = new boolean[executors.length];
        this.wanted = wanted;
        this.listPending = listPending;
        this.whenAllAnswered = whenAllAnswered;
        this.remaining = new AtomicInteger(executors.length);
    }

    /** Sends the scan to every executor. Any thread. */
    void start() {
        if (executors.length == 0) {
            whenAllAnswered.run();
        }
        for (int i = 0; i < executors.length; i++) {
            int index = i;
            Executor e = executors[i];
            if (e.isStoppedForGood()) {
                answered(index, new Answer(), List.of(), 0);
            } else {
                e.post(() -> answer(index, e));
            }
        }
    }

    /**
     * What one executor found, as flat columns: filled on the executor's thread with no hashing and no object per tuple
     * (its thread pauses only for the walk), merged by the searching thread.
     */
    private static final class Answer implements TupleScan.Sink {
        TupleTree[] trees = new TupleTree[64];
        TaskRunner[] holders = new TaskRunner[64];
        byte[] hows = new byte[64];
        int size;

        @Override
        public void found(TupleTree tree, TaskRunner holder, int how) {
            if (size == trees.length) {
                trees = java.util.Arrays.copyOf(trees, size * 2);
                holders = java.util.Arrays.copyOf(holders, size * 2);
                hows = java.util.Arrays.copyOf(hows, size * 2);
            }
            trees[size] = tree;
            holders[size] = holder;
            hows[size++] = (byte) how;
        }
    }

    /** The executor's own thread. */
    private void answer(int index, Executor e) {
        long start = System.nanoTime();
        Answer here = new Answer();
        TupleScan.ofExecutor(e.inbox(), e.outbox(), e.tasks(), here);
        List<Pending> trees = new ArrayList<>();
        if (listPending) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s) {
                    TupleScan.pending(s, start, (tree, age, exact) -> trees.add(new Pending(tree, age, exact)));
                }
            }
        }
        answered(index, here, trees, System.nanoTime() - start);
    }

    private void answered(int index, Answer here, List<Pending> trees, long nanos) {
        synchronized (this) {
            if (closed) {
                return;
            }
            answers.add(here);
            pending.addAll(trees);
            answered[index] = true;
            longestAnswerNanos = Math.max(longestAnswerNanos, nanos);
        }
        if (remaining.decrementAndGet() == 0) {
            whenAllAnswered.run();
        }
    }

    private void put(Map<TupleTree, Found> into, TupleTree tree, TaskRunner holder, int how) {
        if (wanted != null && !wanted.contains(tree)) {
            return;
        }
        Found before = into.get(tree);
        if (before == null || how < before.how()) { // waiting in a queue says more than held upstream
            into.put(tree, new Found(holder, how, null));
        }
    }

    /**
     * Ends the search (later answers are dropped): reads the inboxes of the executors that did not answer, and names
     * where the trees found nowhere else probably are: executing at the one bolt task of the busy threads, or at one
     * of several. Any thread, once.
     */
    synchronized void close() {
        closed = true;
        for (Answer a : answers) {
            for (int i = 0; i < a.size; i++) {
                put(found, a.trees[i], a.holders[i], a.hows[i]);
            }
        }
        List<TaskRunner> busyBolts = new ArrayList<>();
        for (int i = 0; i < executors.length; i++) {
            if (!answered[i]) {
                Executor e = executors[i];
                busy.add(e.name());
                Map<TupleTree, Found> here = new IdentityHashMap<>();
                if (TupleScan.ofBusyInbox(e.inbox(), (tree, holder, how) -> put(here, tree, holder, how))) {
                    here.forEach((tree, f) -> put(found, tree, f.holder(), f.how()));
                }
                for (TaskRunner t : e.tasks()) {
                    if (t instanceof BoltTask) {
                        busyBolts.add(t);
                    }
                }
            }
        }
        if (!busyBolts.isEmpty()) {
            TaskRunner one = busyBolts.size() == 1 ? busyBolts.get(0) : null;
            String label = one != null ? TreeLog.name(one)
                : "one of " + String.join(", ", busyBolts.stream().map(TreeLog::name).toList());
            Set<TupleTree> lookFor = wanted;
            if (lookFor == null) {
                lookFor = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
                for (Pending p : pending) {
                    lookFor.add(p.tree());
                }
            }
            for (TupleTree tree : lookFor) {
                found.putIfAbsent(tree, new Found(one, TupleScan.EXECUTING, label));
            }
        }
    }

    /** Where a tree was found, or null. After {@link #close}. */
    synchronized Found where(TupleTree tree) {
        return found.get(tree);
    }

    /** The pending trees the answering spouts listed. After {@link #close}. */
    synchronized List<Pending> pending() {
        return new ArrayList<>(pending);
    }

    /** The longest an executor's thread spent answering (its pause), in nanoseconds. After {@link #close}. */
    synchronized long longestAnswerNanos() {
        return longestAnswerNanos;
    }

    /** The threads that did not answer (busy inside a user call). After {@link #close}. */
    synchronized List<String> busy() {
        return new ArrayList<>(busy);
    }
}
