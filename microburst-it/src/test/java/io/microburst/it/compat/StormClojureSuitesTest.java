package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * storm-core's Clojure suites that make their clusters with {@code LocalCluster$Builder} or {@code LocalCluster.} and
 * use {@code Testing} (the Trident integration suite, {@code grouping_test.clj}, {@code metrics_test.clj}), from Storm
 * 2.8.3's source release and unchanged, run by clojure.test in a JVM of their own whose class path has
 * microburst-localcluster where storm-server was: the dependency swap, on Clojure code.
 *
 * <p>Besides the release's Clojure namespaces (storm-core's tests, storm-clojure's), the JVM gets what Storm's
 * storm-core build puts beside them: storm-clojure's Java classes (compiled from the release, without
 * {@code ClojureSerializationRegister}, which needs carbonite, published only on Clojars), storm-core's
 * {@code FakeMetricConsumer}, Hamcrest and Awaitility at Storm's versions, and a {@code resources/} folder with
 * storm.py and the release's {@code tester_*_metrics.py} for the metrics suite's Python bolt and spout. The test
 * thread only waits for that JVM; the clusters run in it.
 */
class StormClojureSuitesTest {
    private static final List<String> NAMESPACES = List.of("integration.org.apache.storm.trident.integration-test",
        "org.apache.storm.grouping-test", "org.apache.storm.metrics-test");
    private static final long RUN_LIMIT_MINUTES = 10;

    @Test
    void stormCoreClojureSuitesPassUnchangedWithMicroburstLocalclusterInStormServersPlace() throws Exception {
        Path release = StormSourceRelease.find("storm-clojure/src/main/java");
        assumeTrue(release != null, StormTestSuitesParityTest.SOURCE_RELEASE_HOW_TO);
        Path localcluster = Path.of("..", "microburst-localcluster", "target", "classes").toAbsolutePath().normalize();
        assumeTrue(Files.isDirectory(localcluster.resolve("org/apache/storm")),
            "microburst-localcluster is built in the same reactor: " + localcluster);
        Path work = Files.createDirectories(Path.of("target", "storm-suites", "clojure").toAbsolutePath());
        Path classes = compile(release, work);
        Path resources = multilangResources(release, work);

        List<String> entries = new ArrayList<>(List.of(resources.toString(), classes.toString(),
            release.resolve("storm-core/test/clj").toString(), release.resolve("storm-clojure/src/clj").toString(),
            localcluster.toString()));
        for (String entry : LocalModes.classPath().split(File.pathSeparator)) {
            if (!Path.of(entry).getFileName().toString().startsWith("storm-server-")) {
                entries.add(entry);
            }
        }
        libraries().forEach(p -> entries.add(p.toString()));

        String quoted = NAMESPACES.stream().map(ns -> "'" + ns).collect(Collectors.joining(" "));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
            "-cp", String.join(File.pathSeparator, entries), "clojure.main", "-e", "(require " + quoted + ") (let [r"
                + " (clojure.test/run-tests " + quoted + ")] (shutdown-agents) (System/exit (if"
                + " (clojure.test/successful? r) 0 1)))");
        Path log = work.resolve("output.txt");
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        if (!process.waitFor(RUN_LIMIT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("storm-core's Clojure suites did not finish in " + RUN_LIMIT_MINUTES
                + " minutes; see " + log);
        }
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        String output = Files.readString(log);
        String summary = output.lines().filter(l -> l.startsWith("Ran ") || l.contains(" failures, "))
            .collect(Collectors.joining("; "));
        Files.writeString(work.resolve("report.txt"), "storm-core's Clojure suites (" + String.join(", ", NAMESPACES)
            + "), microburst-localcluster in place of storm-server: " + summary + " in " + seconds + " s\n");
        assertEquals(0, process.exitValue(), "storm-core's Clojure suites on microburst-localcluster: " + summary
            + "; see " + log);
        // Trident: 9 tests, 141 assertions; grouping: 3 and 7; metrics: 4, which assert through Awaitility.
        assertTrue(summary.contains("Ran 16 tests containing 148 assertions") && summary.contains("0 failures, 0 errors"),
            "every case of the three suites ran and passed: " + summary);
    }

    /** storm-clojure's Java classes and storm-core's FakeMetricConsumer, from the release. */
    private static Path compile(Path release, Path work) throws Exception {
        Path sources = work.resolve("src");
        Path clojure = release.resolve("storm-clojure/src/main/java/org/apache/storm/clojure");
        List<Path> files;
        try (Stream<Path> list = Files.list(clojure)) {
            files = list.filter(p -> p.toString().endsWith(".java"))
                .filter(p -> !p.getFileName().toString().equals("ClojureSerializationRegister.java")).toList();
        }
        for (Path file : files) {
            copy(file, sources.resolve("org/apache/storm/clojure").resolve(file.getFileName()));
        }
        copy(release.resolve("storm-core/test/jvm/org/apache/storm/metric/FakeMetricConsumer.java"),
            sources.resolve("org/apache/storm/metric/FakeMetricConsumer.java"));
        Map<String, String> notBuilt = new LinkedHashMap<>();
        Path classes = StormExamplesParityTest.compile(sources, work.resolve("classes"), notBuilt);
        assertEquals(Map.of(), notBuilt, "storm-clojure's classes and FakeMetricConsumer compile");
        return classes;
    }

    /** A class-path folder whose {@code resources/} has storm.py and the metrics suite's Python scripts. */
    private static Path multilangResources(Path release, Path work) throws Exception {
        Path root = work.resolve("multilang");
        Path resources = Files.createDirectories(root.resolve("resources"));
        Files.write(resources.resolve("storm.py"), LocalModes.resource(StormClojureSuitesTest.class,
            "resources/storm.py"));
        for (String script : List.of("tester_bolt_metrics.py", "tester_spout_metrics.py")) {
            copy(release.resolve("storm-core/src/dev/resources").resolve(script), resources.resolve(script));
        }
        return root;
    }

    private static void copy(Path from, Path to) throws Exception {
        Files.createDirectories(to.getParent());
        Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
    }

    /** Hamcrest and Awaitility, as the build copies them. */
    private static List<Path> libraries() throws Exception {
        Path dir = Path.of("target", "storm-core-test-libs").toAbsolutePath();
        assumeTrue(Files.isDirectory(dir), "the build copies Hamcrest and Awaitility to " + dir + " (mvn verify)");
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }
}
