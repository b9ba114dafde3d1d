package io.microburst.it.parity;

import io.microburst.it.support.Await;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.RecordingTaskHook;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * Runs the same topology on Apache Storm's LocalCluster (the reference) and on Microburst, one after the other, and hands back what
 * each run recorded. One cluster of each runtime per test class: Storm's takes seconds to start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ParityTestSupport {
    static final List<String> RUNTIMES = List.of(Runtimes.STORM, Runtimes.MICROBURST);
    static final long QUIET_MILLIS = 500;
    private final Map<String, ILocalCluster> clusters = new LinkedHashMap<>();
    private final Map<String, Throwable> failedStarts = new LinkedHashMap<>();

    @BeforeAll
    void startClusters() throws Exception {
        for (String runtime : RUNTIMES) {
            try {
                clusters.put(runtime, Runtimes.start(runtime));
            } catch (Exception | LinkageError e) {
                // A runtime that cannot start fails each test that needs it, with the cause; the other runtime stays usable.
                failedStarts.put(runtime, e);
            }
        }
    }

    @AfterAll
    void closeClusters() throws Exception {
        Exception first = null;
        for (ILocalCluster cluster : clusters.values()) {
            try {
                cluster.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** What one runtime's run recorded. */
    record Run(String runtime, List<Object> events) {
        <T> List<T> all(Class<T> type) {
            List<T> matching = new ArrayList<>();
            for (Object event : events) {
                if (type.isInstance(event)) {
                    matching.add(type.cast(event));
                }
            }
            return matching;
        }

        List<Received> receivedBy(String component) {
            return all(Received.class).stream().filter(r -> r.component().equals(component)).toList();
        }
    }

    /**
     * Runs the topology (built for a fresh scope) on each runtime until {@code done} holds for what it recorded, then kills it and
     * returns the records, keyed by runtime. The predicate receives the events recorded so far.
     */
    Map<String, Run> runOnBoth(String label, Function<String, StormTopology> topologyForScope, Map<String, Object> conf,
                               Predicate<List<Object>> done, Duration limit) throws Exception {
        Map<String, Run> runs = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            runs.put(runtime, runOn(runtime, label, topologyForScope, conf, done, limit));
        }
        return runs;
    }

    /**
     * For finite topologies: runs until {@code expected} tuples were received on each runtime, and checks that no more arrive in a
     * short quiet period after that (a duplicate delivery would).
     */
    Map<String, Run> runFiniteOnBoth(String label, Function<String, StormTopology> topologyForScope, Map<String, Object> conf,
                                     int expected) throws Exception {
        Predicate<List<Object>> tooMany = events -> received(events) > expected;
        Map<String, Run> runs = new TreeMap<>();
        for (String runtime : RUNTIMES) {
            runs.put(runtime, runOn(runtime, label, topologyForScope, conf, events -> received(events) >= expected,
                Await.DEFAULT_LIMIT, tooMany));
        }
        for (Run run : runs.values()) {
            if (received(run.events()) != expected) {
                throw new AssertionError(run.runtime() + " delivered " + received(run.events()) + " tuples, expected " + expected);
            }
        }
        return runs;
    }

    private static long received(List<Object> events) {
        return events.stream().filter(Received.class::isInstance).count();
    }

    Run runOn(String runtime, String label, Function<String, StormTopology> topologyForScope, Map<String, Object> conf,
              Predicate<List<Object>> done, Duration limit) throws Exception {
        return runOn(runtime, label, topologyForScope, conf, done, limit, null);
    }

    /**
     * Runs on one runtime until {@code done} holds; then, when {@code mustNotFollow} is given, watches a quiet period of
     * {@value #QUIET_MILLIS} ms in which it must not become true.
     */
    Run runOn(String runtime, String label, Function<String, StormTopology> topologyForScope, Map<String, Object> conf,
              Predicate<List<Object>> done, Duration limit, Predicate<List<Object>> mustNotFollow) throws Exception {
        ILocalCluster cluster = cluster(runtime);
        String scope = Recorder.openScope(runtime + "-" + label);
        String name = Topologies.uniqueName(label);
        try {
            // Built before the configuration is copied: a topology factory may register scope-specific configuration.
            StormTopology topology = topologyForScope.apply(scope);
            cluster.submitTopology(name, withScope(conf, scope), topology);
            Await.until(runtime + " run of " + label + " to complete", () -> done.test(Recorder.all(scope)), limit,
                () -> summarize(Recorder.all(scope)));
            if (mustNotFollow != null) {
                Await.never(runtime + " run of " + label + " to go on after completing", () -> mustNotFollow.test(Recorder.all(scope)),
                    Duration.ofMillis(QUIET_MILLIS));
            }
            return new Run(runtime, Recorder.all(scope));
        } finally {
            try {
                Topologies.killAndAwaitGone(cluster, name);
            } finally {
                Recorder.closeScope(scope);
            }
        }
    }

    /** Lets components created by class name (auto task hooks) find the scope. */
    private static Map<String, Object> withScope(Map<String, Object> conf, String scope) {
        Map<String, Object> copy = new LinkedHashMap<>(conf);
        copy.put(RecordingTaskHook.SCOPE_KEY, scope);
        return copy;
    }

    ILocalCluster cluster(String runtime) {
        ILocalCluster cluster = clusters.get(runtime);
        if (cluster == null) {
            throw new AssertionError(runtime + " cluster did not start", failedStarts.get(runtime));
        }
        return cluster;
    }

    private static String summarize(List<Object> events) {
        Map<String, Integer> byType = new TreeMap<>();
        for (Object event : events) {
            byType.merge(event.getClass().getSimpleName(), 1, Integer::sum);
        }
        return byType.toString();
    }
}
