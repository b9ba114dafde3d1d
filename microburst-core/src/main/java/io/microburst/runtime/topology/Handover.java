package io.microburst.runtime.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;

/**
 * The old version's side of an upgrade: stops its spouts from emitting and waits until what they emitted has
 * finished, so that the new version can take over with nothing in flight. The spouts a caller names to keep (Storm's
 * checkpoint spout) go on emitting meanwhile, so stateful bolts, which ack their input only once a checkpoint holding
 * it has committed, commit their final checkpoint; they stop once no checkpoint of theirs is in flight.
 *
 * <p>Every look at a spout runs on the spout's own executor thread (posted as mail): a spout task is confined to it.
 *
 * <p>Threading: called on the upgrading thread; the topology runs on meanwhile.
 */
public final class Handover {
    /** How often the waiting thread asks the spouts again. */
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
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
        List<Posted> stopped = new ArrayList<>();
        List<Posted> kept = new ArrayList<>();
        for (Executor e : runtime.executors()) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s) {
                    (keep.contains(s.componentId()) ? kept : stopped).add(new Posted(e, s));
                }
            }
        }
        for (Posted p : stopped) {
            p.executor.post(p.spout::deactivate);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        boolean drained = waitUntil(stopped, s -> s.getPendingCount() == 0, deadline);
        long drainedNanos = System.nanoTime();
        long failedBack = 0;
        if (!drained) {
            for (Posted p : stopped) {
                Object n = ask(p, s -> {
                    long pending = s.getPendingCount();
                    s.failPending();
                    return pending;
                });
                failedBack += n instanceof Long count ? count : 0;
            }
        }
        // the kept spouts stop between two checkpoints: a check and a deactivation in one turn of their thread
        long keptDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(waitMs, ANSWER_MS));
        boolean quiet = waitUntil(kept, s -> {
            if (s.getPendingCount() != 0) {
                return false;
            }
            s.deactivate();
            return true;
        }, keptDeadline);
        if (!quiet) {
            for (Posted p : kept) {
                p.executor.post(p.spout::deactivate);
            }
        }
        return new Result(drained, failedBack, drainedNanos);
    }

    /** Asks every spout of {@code spouts} until each has answered true once, or the deadline passed. */
    private static boolean waitUntil(List<Posted> spouts, Function<SpoutTask, Boolean> question, long deadline)
        throws InterruptedException {
        List<Posted> left = new ArrayList<>(spouts);
        while (true) {
            left.removeIf(p -> Boolean.TRUE.equals(ask(p, question)));
            if (left.isEmpty()) {
                return true;
            }
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
            if (Thread.interrupted()) {
                throw new InterruptedException("upgrade interrupted while the old version drained");
            }
        }
    }

    /** Runs {@code question} on the spout's executor thread; null when it did not answer in time (busy, stopped). */
    private static Object ask(Posted p, Function<SpoutTask, ?> question) {
        CompletableFuture<Object> answer = new CompletableFuture<>();
        p.executor.post(() -> answer.complete(question.apply(p.spout)));
        try {
            return answer.get(ANSWER_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private record Posted(Executor executor, SpoutTask spout) {
    }
}
