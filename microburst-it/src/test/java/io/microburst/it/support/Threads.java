package io.microburst.it.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Thread snapshots, to prove a runtime leaves no thread behind once closed. */
public final class Threads {
    private Threads() {
    }

    public static Set<Thread> snapshot() {
        return new HashSet<>(Thread.getAllStackTraces().keySet());
    }

    /** Threads alive now that were not in the snapshot. */
    public static List<Thread> startedSince(Set<Thread> before) {
        List<Thread> started = new ArrayList<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && !before.contains(thread)) {
                started.add(thread);
            }
        }
        return started;
    }

    /** Waits (bounded) until every thread started since the snapshot has ended; fails naming the survivors and where they are. */
    public static void awaitAllEndedSince(Set<Thread> before, Duration limit) {
        Await.until("every thread started since the snapshot to end", () -> startedSince(before).isEmpty(), limit,
            () -> describe(startedSince(before)));
    }

    public static String describe(List<Thread> threads) {
        return threads.stream()
            .map(t -> "\"" + t.getName() + "\" daemon=" + t.isDaemon() + " state=" + t.getState() + " at "
                + Arrays.stream(t.getStackTrace()).limit(6).map(String::valueOf).collect(Collectors.joining(" < ")))
            .collect(Collectors.joining("\n  ", "\n  ", ""));
    }
}
