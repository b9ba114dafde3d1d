package io.microburst.it.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A static, thread-safe registry of what topology components observed, partitioned by scope. Components are Java-serialized and
 * re-created per task, so they cannot hold references to test objects; they carry a scope id (a string) instead and record into it.
 * Each test opens its own scope, so tests running one after another (or topologies running side by side) never see each other's events.
 * Events recorded into a closed or unknown scope are dropped: a late event from a topology being stopped must not leak into a later test.
 */
public final class Recorder {
    private static final Map<String, Queue<Object>> EVENTS_BY_SCOPE = new ConcurrentHashMap<>();
    private static final AtomicLong NEXT_SCOPE = new AtomicLong();

    private Recorder() {
    }

    /** Opens a fresh scope; the label only makes the id readable in failure messages. */
    public static String openScope(String label) {
        String scope = label + "-" + NEXT_SCOPE.incrementAndGet();
        EVENTS_BY_SCOPE.put(scope, new ConcurrentLinkedQueue<>());
        return scope;
    }

    /** Closes the scope; a null scope (a test that never opened one, e.g. skipped by an assumption) is ignored. */
    public static void closeScope(String scope) {
        if (scope != null) {
            EVENTS_BY_SCOPE.remove(scope);
        }
    }

    public static void record(String scope, Object event) {
        Queue<Object> events = EVENTS_BY_SCOPE.get(scope);
        if (events != null) {
            events.add(event);
        }
    }

    /** A snapshot, in recording order per thread, of every event of the scope. */
    public static List<Object> all(String scope) {
        Queue<Object> events = EVENTS_BY_SCOPE.get(scope);
        return events == null ? List.of() : new ArrayList<>(events);
    }

    /** A snapshot of the scope's events of one type. */
    public static <T> List<T> all(String scope, Class<T> type) {
        List<T> matching = new ArrayList<>();
        for (Object event : all(scope)) {
            if (type.isInstance(event)) {
                matching.add(type.cast(event));
            }
        }
        return matching;
    }

    public static <T> int count(String scope, Class<T> type) {
        return all(scope, type).size();
    }
}
