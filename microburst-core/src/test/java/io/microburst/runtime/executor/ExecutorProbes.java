package io.microburst.runtime.executor;

import io.microburst.plan.PlacementPolicy;
import io.microburst.runtime.task.BoltTask;
import java.util.List;

/**
 * What the tests of the topology package read of, and ask of, an executor's package-private members, without
 * widening its API. Each method says which thread may call it, as the member it calls does.
 */
public final class ExecutorProbes {
    private ExecutorProbes() {
    }

    /** See {@code Executor#untilPoll}. Any thread. */
    public static long untilPoll(Executor e, long now) {
        return e.untilPoll(now);
    }

    /** Times the executor parked; only once it has stopped. */
    public static long parks(Executor e) {
        return e.parks();
    }

    /** Acts on one closed balance window. The executor's own thread only (post it there). */
    public static void decide(Executor e, PlacementPolicy.Window window, List<BoltTask> fused, int cores) {
        e.balancer().decide(window, fused, cores);
    }

    /** Whether the topology of {@code e} refuses a cut at {@code componentId} at {@code rate}. Any thread. */
    public static boolean cutRefused(Executor e, String componentId, double rate) {
        return e.balancer().refused(componentId, rate);
    }
}
