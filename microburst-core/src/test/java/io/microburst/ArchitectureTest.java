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
 * {@code io.microburst.runtime} sub-packages that are its layers and depend one way only, from the topology down to the
 * executor loop, the data path and the leaves. The packages are the layers: a new runtime class goes into the package
 * of its layer and needs no listing here. Inside the data path ({@code runtime.task}) classes depend on each other
 * both ways, on purpose: emit and execute are one call recursion (a task's emit, its outbox, the next fused bolt's
 * execute, its emit...), and a link names its target bolt task. That is the one back reference the runtime allows, and
 * it stays inside one package. Read from the compiled classes by the JDK's own {@code jdeps}.
 */
class ArchitectureTest {
    private static final String RUNTIME = "io.microburst.runtime";

    /**
     * The sub-packages of io.microburst.runtime by layer, lowest first. A package may depend on packages of the layers
     * below its own, never on another package of its own layer or on one above.
     */
    private static final List<Set<String>> RUNTIME_LAYERS = List.of(
        // leaves: clocks, timers and turn budgets; the measured cost of fused tasks
        Set.of("clock", "cost"),
        // the data path: tasks and their collectors, tuples, batches, links, inboxes and outboxes, acks
        Set.of("task"),
        // executor threads: the agent loop, its idle strategy, pipelining
        Set.of("executor"),
        // the topology: lifecycle, placement, stop, supervision, timers, metrics, statistics, auto parallelism
        Set.of("topology"));

    private static final Pattern EDGE = Pattern.compile("^\\s+(io\\.microburst[\\w.$]*)\\s+->\\s+(io\\.microburst[\\w.$]*)\\s");

    /** Class-to-class dependencies inside microburst-core (or package-to-package with {@code verbose} "package"). */
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
    void runtimePackagesDependOnlyDownTheLayers() throws Exception {
        Map<String, Set<String>> edges = dependencies("class");
        List<String> notDown = new ArrayList<>();
        Set<String> unlayered = new TreeSet<>();
        Set<String> seen = new TreeSet<>();
        for (Map.Entry<String, Set<String>> e : edges.entrySet()) {
            String from = runtimePackage(e.getKey());
            if (from == null) {
                continue;
            }
            seen.add(from);
            int fromLayer = layer(from, e.getKey(), unlayered);
            for (String target : e.getValue()) {
                String to = runtimePackage(target);
                if (to == null || to.equals(from)) {
                    continue; // outside the runtime, or inside one package (the data path's recursion among them)
                }
                int toLayer = layer(to, target, unlayered);
                if (toLayer >= fromLayer) {
                    notDown.add(simple(e.getKey()) + " -> " + simple(target));
                }
            }
        }
        assertTrue(unlayered.isEmpty(), "runtime classes outside the layer packages (move them into the package of "
            + "their layer, or give a new package a layer in RUNTIME_LAYERS and in docs/ARCHITECTURE.md): " + unlayered);
        Set<String> layered = new TreeSet<>();
        RUNTIME_LAYERS.forEach(layered::addAll);
        assertEquals(layered, seen, "layer packages with no classes (renamed or removed?)");
        assertTrue(notDown.isEmpty(), "runtime dependencies that do not run down the layers (a package may use only "
            + "packages of lower layers): " + notDown);
    }

    /** The runtime sub-package a class is in ("task" for io.microburst.runtime.task.Inbox); "" for the runtime's own. */
    private static String runtimePackage(String className) {
        if (!className.startsWith(RUNTIME + ".")) {
            return null;
        }
        String rest = className.substring(RUNTIME.length() + 1);
        int dot = rest.lastIndexOf('.');
        return dot < 0 ? "" : rest.substring(0, dot);
    }

    private static int layer(String pkg, String className, Set<String> unlayered) {
        for (int i = 0; i < RUNTIME_LAYERS.size(); i++) {
            if (RUNTIME_LAYERS.get(i).contains(pkg)) {
                return i;
            }
        }
        unlayered.add(className);
        return -1;
    }

    private static String simple(String className) {
        return className.substring(RUNTIME.length() + 1);
    }
}
