package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.DrainWatch;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;

/**
 * The old version's side of an upgrade: stops its spouts from emitting and waits until what they emitted has
 * finished, so that the new version can take over with nothing in flight. The spouts a caller names to keep (Storm's
 * checkpoint spout) go on emitting meanwhile, so stateful bolts, which ack their input only once a checkpoint holding
 * it has committed, commit their final checkpoint; they stop once no checkpoint of theirs is in flight.
 *
 * <p>Nothing waits for a clock: each spout tells the waiting thread when it has nothing pending (a {@link DrainWatch}
 * on its thread, after its last tree completes). The kept checkpoint spout starts a checkpoint at once when the drain
 * begins (and no longer sleeps in an idle nextTuple, which would hold back the mail that follows), and after each one
 * it completes, asks the stopped spouts whether they still wait: each answers on its own
 * thread, after the trees that commit completed (their completions were queued before the question), and one still
 * waiting starts the next checkpoint at once rather than an interval later. So a stateful bolt's held acks come at
 * the next commit, and no checkpoint is started that nothing waits for. A look at a spout runs on the spout's own executor thread (posted as mail): a spout task is
 * confined to it. Should a signal be missed (the spout's instance replaced meanwhile), the waiting thread asks again
 * every {@link #GUARD_MS}.
 *
 * <p>Threading: called on the upgrading thread; the topology runs on meanwhile.
 */
public final class Handover {
    /** How long the waiting thread trusts the signals before it asks the spouts itself. */
    private static final long GUARD_MS = 250;
    /** How long one question to a spout's thread may take before the spout counts as busy. */
    private static final long ANSWER_MS = 1_000;

    /**
     * What the drain found.
     *
     * @param drained whether every tree of the stopped spouts completed within the wait
     * @param failedBack trees still pending at the end of the wait, failed back to their spouts for replay
     * @param drainedNanos {@link System#nanoTime()} when the last tree completed, or when the wait ran out
     */
    public record Result(boolean drained, long failedBack, long drainedNanos) {
    }

    private Handover() {
    }

    /**
     * Deactivates every spout of {@code runtime} but those of the components in {@code keep}, waits up to
     * {@code waitMs} for their pending trees to complete, fails back what is still pending then, and finally waits
     * (for at most the same time again) until the kept spouts have nothing pending and deactivates them too.
     */
    public static Result drain(TopologyRuntime runtime, Set<String> keep, long waitMs) throws InterruptedException {
        List<Watched> stopped = new ArrayList<>();
        List<Watched> kept = new ArrayList<>();
        for (Executor e : runtime.executors()) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s) {
                    (keep.contains(s.componentId()) ? kept : stopped).add(new Watched(e, s, new DrainWatch(s)));
                }
            }
        }
        AtomicBoolean draining = new AtomicBoolean(true);
        for (Watched w : kept) {
            w.executor.post(() -> {
                w.watch.attach();
                w.watch.awake();
                w.watch.nudge();
                w.watch.afterCheckpoint(() -> askStillWaiting(stopped, w, draining));
            });
        }
        for (Watched w : stopped) {
            w.executor.post(() -> {
                w.spout.deactivate();
                w.watch.attach();
                w.watch.whenIdle(() -> w.done.complete(true));
            });
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        boolean drained = await(stopped, w -> w.watch.settled(), deadline);
        long drainedNanos = System.nanoTime();
        draining.set(false);
        long failedBack = 0;
        if (!drained) {
            for (Watched w : stopped) {
                Object n = ask(w, x -> {
                    long pending = x.spout.getPendingCount();
                    x.spout.failPending();
                    return pending;
                });
                failedBack += n instanceof Long count ? count : 0;
            }
        }
        // the kept spouts stop between two checkpoints: once nothing is pending, deactivated in the same turn of their
        // thread, before a nextTuple could start another
        for (Watched w : kept) {
            w.executor.post(() -> w.watch.whenIdle(() -> {
                w.spout.deactivate();
                w.done.complete(true);
            }));
        }
        long keptDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(waitMs, ANSWER_MS));
        boolean quiet = await(kept, w -> {
            if (!w.watch.settled()) {
                return false;
            }
            w.spout.deactivate();
            return true;
        }, keptDeadline);
        if (!quiet) {
            for (Watched w : kept) {
                w.executor.post(w.spout::deactivate);
            }
        }
        return new Result(drained, failedBack, drainedNanos);
    }

    /**
     * Checkpoint spout's thread, after a checkpoint: each stopped spout not yet settled, on its own thread, has the
     * checkpoint spout start the next checkpoint at once.
     */
    private static void askStillWaiting(List<Watched> stopped, Watched checkpoint, AtomicBoolean draining) {
        if (!draining.get()) {
            return;
        }
        for (Watched w : stopped) {
            w.executor.post(() -> {
                if (draining.get() && !w.watch.settled()) {
                    checkpoint.executor.post(checkpoint.watch::nudge);
                }
            });
        }
    }

    /**
     * Waits until every spout of {@code spouts} has signalled, or the deadline passed; every {@link #GUARD_MS} asks
     * those not heard of yet {@code done} on their thread.
     */
    private static boolean await(List<Watched> spouts, Function<Watched, Boolean> done, long deadline)
        throws InterruptedException {
        CompletableFuture<Void> all = CompletableFuture.allOf(spouts.stream().map(w -> w.done)
            .toArray(CompletableFuture[]::new));
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return all.isDone();
            }
            try {
                all.get(Math.min(left, TimeUnit.MILLISECONDS.toNanos(GUARD_MS)), TimeUnit.NANOSECONDS);
                return true;
            } catch (TimeoutException e) {
                for (Watched w : spouts) {
                    if (!w.done.isDone() && Boolean.TRUE.equals(ask(w, done))) {
                        w.done.complete(true);
                    }
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    /** Runs {@code question} on the spout's executor thread; null when it did not answer in time (busy, stopped). */
    private static Object ask(Watched w, Function<Watched, ?> question) {
        CompletableFuture<Object> answer = new CompletableFuture<>();
        w.executor.post(() -> answer.complete(question.apply(w)));
        try {
            return answer.get(ANSWER_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** A spout task, its executor, its watch, and whether it was heard to have nothing pending. */
    private record Watched(Executor executor, SpoutTask spout, DrainWatch watch, CompletableFuture<Boolean> done) {
        Watched(Executor executor, SpoutTask spout, DrainWatch watch) {
            this(executor, spout, watch, new CompletableFuture<>());
        }
    }
}
