package io.microburst.runtime.topology;

import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.DrainWatch;
import io.microburst.runtime.task.SpoutTask;
import io.microburst.runtime.task.TaskRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Before an upgrade drains the old version: Storm's checkpoint spout, when it has nothing to start, sleeps a tenth of
 * its interval inside {@code nextTuple} (100 ms at the default interval), and the drain's first mail to it (start the
 * final checkpoint) would wait for the sleep it is in. So, while the old version still runs and the new one starts
 * beside it, the checkpoint spout is told not to sleep any more ({@link DrainWatch#awake}) and the upgrade waits until
 * its thread has taken that mail: the sleep it was in then ends before the drain, not inside the output gap. If the
 * upgrade stops before the old version does, {@link #undo} gives the spout its sleep back.
 *
 * <p>Threading: {@link #begin}, {@link #await} and {@link #undo} on the upgrading thread; the watches on the
 * checkpoint spout's executor thread (posted as mail).
 */
public final class CheckpointWake {
    private final List<Executor> executors = new ArrayList<>();
    private final List<DrainWatch> watches = new ArrayList<>();
    private final List<CompletableFuture<Void>> taken = new ArrayList<>();

    private CheckpointWake() {
    }

    /** Tells every task of {@code runtime}'s component {@code checkpointComponent} (a spout) to stop sleeping. */
    public static CheckpointWake begin(TopologyRuntime runtime, String checkpointComponent) {
        CheckpointWake wake = new CheckpointWake();
        for (Executor e : runtime.executors()) {
            for (TaskRunner t : e.tasks()) {
                if (t instanceof SpoutTask s && checkpointComponent.equals(s.componentId())) {
                    DrainWatch watch = new DrainWatch(s);
                    CompletableFuture<Void> done = new CompletableFuture<>();
                    e.post(() -> {
                        watch.awake();
                        done.complete(null);
                    });
                    wake.executors.add(e);
                    wake.watches.add(watch);
                    wake.taken.add(done);
                }
            }
        }
        return wake;
    }

    /** Waits until every checkpoint spout's thread took the mail, for at most {@code timeoutMs}; true if it did. */
    public boolean await(long timeoutMs) throws InterruptedException {
        try {
            CompletableFuture.allOf(taken.toArray(CompletableFuture[]::new)).get(timeoutMs, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        }
    }

    /** The upgrade did not go on: each checkpoint spout sleeps again as before (on its own thread). */
    public void undo() {
        for (int i = 0; i < watches.size(); i++) {
            executors.get(i).post(watches.get(i)::detach);
        }
    }
}
