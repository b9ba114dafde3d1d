package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Keeps the structure that docs/ARCHITECTURE.md draws: no cycle between the packages of microburst-core, and inside
 * {@code io.microburst.runtime} dependencies that run one way only, from the topology layer down to the executor layer
 * and from there down to the data path. Read from the compiled classes by the JDK's own {@code jdeps}.
 */
class ArchitectureTest {
    private static final String RUNTIME = "io.microburst.runtime.";

    /** The layers of io.microburst.runtime, lowest first; a class may depend on its own layer and those below. */
    private static final List<Set<String>> RUNTIME_LAYERS = List.of(
        // leaves: no other runtime class
        Set.of("TurnBudget", "TupleContext", "SharedTimer", "WorkDir", "ExecutorView", "CycleGroups", "ThreadLayout",
            "SpoutWait", "BalanceWindow", "DebugLog", "SlowStreak", "StormClockSchedule"),
        // the data path: tasks and their collectors, tuples, batches, inboxes and outboxes (emit -> execute is a call
        // recursion through them, so they form one layer)
        Set.of("TaskHost", "TaskRunner", "BoltTask", "SpoutTask", "BoltOutput", "SpoutOutput", "StreamRoute", "Link",
            "LinkFields", "LinkPadBefore", "RoutedTuple", "Batch", "Inbox", "Outbox", "Switchboard", "HeldTuples",
            "AnchoredIds", "BoltAcks", "BasicBoltRunner"),
        // executor threads
        Set.of("ExecutorHost", "Executor", "IdleStrategy", "Balancer", "IdleProbe"),
        // the topology: planning threads, lifecycle, supervision, timers, metrics, statistics
        Set.of("Placement", "StopSequence", "Supervisor", "WorkerResources", "MetricsWiring", "TopologyTimers",
            "StatsViews", "ThreadView", "TopologyHost", "TopologyRuntime", "AutoParallelism", "Quiescence"));

    private static final Pattern EDGE = Pattern.compile("^\\s+(io\\.microburst[\\w.$]*)\\s+->\\s+(io\\.microburst[\\w.$]*)\\s");

    private static Map<String, Set<String>> dependencies(String verbose) throws Exception {
        Path classes = Path.of(MicroburstCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ToolProvider jdeps = ToolProvider.findFirst("jdeps")
            .orElseThrow(() -> new AssertionError("jdeps not found: run the build on a JDK, not a JRE"));
        StringWriter out = new StringWriter();
        int code = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:" + verbose, "-filter:none",
            classes.toString());
        assertEquals(0, code, "jdeps failed: " + out);
        Map<String, Set<String>> edges = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.find() && !m.group(1).equals(m.group(2))) {
                edges.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
            }
        }
        assertTrue(edges.size() > 3, "jdeps listed too few dependencies to check anything: " + out);
        return edges;
    }

    @Test
    void packagesHaveNoCycles() throws Exception {
        Map<String, Set<String>> edges = dependencies("package");
        List<String> cycles = new ArrayList<>();
        for (String from : edges.keySet()) {
            for (String to : edges.get(from)) {
                if (reaches(edges, to, from, new TreeSet<>())) {
                    cycles.add(from + " -> " + to + " -> ... -> " + from);
                }
            }
        }
        assertTrue(cycles.isEmpty(), "package cycles: " + cycles);
    }

    private static boolean reaches(Map<String, Set<String>> edges, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String next : edges.getOrDefault(from, Set.of())) {
            if (reaches(edges, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void runtimeDependenciesRunDownTheLayers() throws Exception {
        Map<String, Set<String>> edges = dependencies("class");
        List<String> upward = new ArrayList<>();
        Set<String> unplaced = new TreeSet<>();
        for (Map.Entry<String, Set<String>> e : edges.entrySet()) {
            if (!e.getKey().startsWith(RUNTIME)) {
                continue;
            }
            int from = layer(e.getKey(), unplaced);
            for (String to : e.getValue()) {
                if (to.startsWith(RUNTIME) && layer(to, unplaced) > from) {
                    upward.add(e.getKey().substring(RUNTIME.length()) + " -> " + to.substring(RUNTIME.length()));
                }
            }
        }
        assertTrue(unplaced.isEmpty(), "runtime classes in no layer (add them to RUNTIME_LAYERS and to the drawing in "
            + "docs/ARCHITECTURE.md): " + unplaced);
        assertTrue(upward.isEmpty(), "dependencies from a lower runtime layer up to a higher one: " + upward);
    }

    private static int layer(String className, Set<String> unplaced) {
        String simple = className.substring(RUNTIME.length());
        int nested = simple.indexOf('$');
        if (nested >= 0) {
            simple = simple.substring(0, nested);
        }
        for (int i = 0; i < RUNTIME_LAYERS.size(); i++) {
            if (RUNTIME_LAYERS.get(i).contains(simple)) {
                return i;
            }
        }
        unplaced.add(simple);
        return -1;
    }
}
