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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * storm-starter's own unit tests from Storm 2.8.3's source release ({@code examples/storm-starter/test/jvm}: its
 * tools' and rolling-count and ranking bolts' tests, TestNG with Mockito, FEST-Assert and jMock), compiled unchanged
 * with the storm-starter classes they test and storm-client's {@code MockTupleHelpers}, and run with TestNG in a JVM of
 * their own whose class path has microburst-localcluster where storm-server was (as a user swaps the dependency).
 * None of them makes a cluster: they drive bolts with mocked tuples and collectors, and use storm-client's simulated
 * {@code Time}; so they pass on either class path, and take the same time. Every build runs them on Microburst's (a
 * few seconds); {@code -Dmicroburst.long=true} also runs them with storm-server's jars instead and expects the same
 * verdicts. Timings go to {@code target/storm-starter-tests/report.txt}. (storm-starter's Clojure test, which goes
 * through storm-server's {@code Testing.testTuple}, needs Clojure and storm-clojure and is not run.)
 */
class StormStarterTestsTest {
    private static final String STARTER = "examples/storm-starter";
    private static final String PACKAGE = "org/apache/storm/starter";
    /** The storm-starter classes the tests exercise, under src/jvm. */
    private static final List<String> TESTED = List.of("tools/Rankable", "tools/RankableObjectWithFields",
        "tools/Rankings", "tools/NthLastModifiedTimeTracker", "tools/SlotBasedCounter", "tools/SlidingWindowCounter",
        "bolt/RollingCountBolt", "bolt/AbstractRankerBolt", "bolt/IntermediateRankingsBolt", "bolt/TotalRankingsBolt");
    private static final Pattern METHOD = Pattern.compile(
        "<test-method (?=[^>]*status=\"(\\w+)\")(?=[^>]*name=\"(\\w+)\")(?![^>]*is-config=\"true\")[^>]*>");
    private static final Pattern CLASS = Pattern.compile("<class name=\"([\\w.]+)\">(.*?)</class>", Pattern.DOTALL);
    private static final long RUN_LIMIT_SECONDS = 300;

    @Test
    void stormStartersTestsPassWithMicroburstLocalclusterInStormServersPlace() throws Exception {
        Path release = StormSourceRelease.find(STARTER + "/test/jvm");
        assumeTrue(release != null, StormSourceRelease.HOW_TO);
        Path localcluster = Path.of("..", "microburst-localcluster", "target", "classes").toAbsolutePath().normalize();
        assumeTrue(Files.isDirectory(localcluster.resolve("org/apache/storm")),
            "microburst-localcluster is built in the same reactor: " + localcluster);
        Path classes = compile(release);
        List<String> tests = testClasses(release);
        assertEquals(8, tests.size(), "storm-starter's Java test classes: " + tests);

        String microburst = classPath(classes, localcluster);
        Run ours = run(classes, microburst, tests, "microburst");
        assertEquals(List.of(), ours.failed(), "storm-starter's tests on Microburst's class path: " + ours);
        assertTrue(ours.passed() >= 50, "the tests ran (each data provider row counts): " + ours);

        StringBuilder report = new StringBuilder("storm-starter tests, microburst-localcluster in place of storm-server: "
            + ours + "\n");
        if (StormSourceRelease.LONG_RUN) {
            Run storms = run(classes, classPath(classes, null), tests, "storm");
            assertEquals(ours.verdicts(), storms.verdicts(), "the same verdicts with storm-server's jars");
            report.append("storm-starter tests, storm-server 2.8.3: ").append(storms).append('\n');
        }
        Path out = Files.createDirectories(Path.of("target", "storm-starter-tests"));
        Files.writeString(out.resolve("report.txt"), report);
    }

    /** Verdicts per test method ({@code Class.method#row}), the wall time of the TestNG process, and the counts. */
    record Run(Map<String, String> verdicts, long millis) {
        List<String> failed() {
            return verdicts.entrySet().stream().filter(e -> !e.getValue().equals("PASS"))
                .map(e -> e.getKey() + ": " + e.getValue()).toList();
        }

        long passed() {
            return verdicts.values().stream().filter("PASS"::equals).count();
        }

        @Override
        public String toString() {
            return passed() + " of " + verdicts.size() + " passed in " + millis + " ms (TestNG's JVM, start included)";
        }
    }

    /** Runs TestNG on {@code tests} with {@code classPath} in a JVM of its own; its verdicts from testng-results.xml. */
    private static Run run(Path classes, String classPath, List<String> tests, String name) throws Exception {
        Path out = Files.createDirectories(Path.of("target", "storm-starter-tests", name).toAbsolutePath());
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            classPath, "org.testng.TestNG", "-d", out.toString(), "-testclass", String.join(",", tests));
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(out.resolve("output.txt").toFile()).start();
        if (!process.waitFor(RUN_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("TestNG did not finish in " + RUN_LIMIT_SECONDS + " s: " + out);
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        Path results = out.resolve("testng-results.xml");
        assertTrue(Files.exists(results), "TestNG wrote no results (exit " + process.exitValue() + "): "
            + Files.readString(out.resolve("output.txt")));
        Map<String, String> verdicts = new TreeMap<>();
        Matcher type = CLASS.matcher(Files.readString(results));
        while (type.find()) {
            Matcher method = METHOD.matcher(type.group(2));
            while (method.find()) {
                String key = type.group(1).substring(type.group(1).lastIndexOf('.') + 1) + "." + method.group(2);
                int row = 0;
                while (verdicts.containsKey(key + "#" + row)) {
                    row++;
                }
                verdicts.put(key + "#" + row, method.group(1));
            }
        }
        return new Run(verdicts, millis);
    }

    /**
     * The compiled tests and storm-starter classes, the copied libraries, and this module's test class path without
     * storm-server's jars; with {@code localcluster} in their place when given.
     */
    private static String classPath(Path classes, Path localcluster) throws Exception {
        List<String> entries = new ArrayList<>(List.of(classes.toString()));
        if (localcluster != null) {
            entries.add(localcluster.toString());
        }
        for (String entry : LocalModes.classPath().split(File.pathSeparator)) {
            String file = Path.of(entry).getFileName().toString();
            if (localcluster == null || !file.startsWith("storm-server-")) {
                entries.add(entry);
            }
        }
        libraries().forEach(p -> entries.add(p.toString()));
        return String.join(File.pathSeparator, entries);
    }

    private static List<Path> libraries() throws Exception {
        Path dir = Path.of("target", "storm-starter-test-libs").toAbsolutePath();
        assumeTrue(Files.isDirectory(dir), "the build copies storm-starter's test libraries to " + dir + " (mvn verify)");
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    /** The test classes' names, from the release's test folder. */
    private static List<String> testClasses(Path release) throws Exception {
        Path tests = release.resolve(STARTER).resolve("test/jvm");
        try (Stream<Path> files = Files.walk(tests)) {
            return files.filter(p -> p.getFileName().toString().endsWith("Test.java")).sorted()
                .map(p -> tests.relativize(p).toString().replace(".java", "").replace(File.separatorChar, '.'))
                .toList();
        }
    }

    /** Copies the tests, the classes they test and MockTupleHelpers, unchanged, and compiles them. */
    private static Path compile(Path release) throws Exception {
        Path work = Path.of("target", "storm-starter-tests").toAbsolutePath();
        Path sources = work.resolve("src");
        Map<Path, Path> files = new LinkedHashMap<>();
        Path starter = release.resolve(STARTER);
        for (String type : TESTED) {
            Path file = Path.of(PACKAGE, type + ".java");
            files.put(starter.resolve("src/jvm").resolve(file), sources.resolve(file));
        }
        try (Stream<Path> tests = Files.walk(starter.resolve("test/jvm"))) {
            tests.filter(p -> p.toString().endsWith(".java"))
                .forEach(p -> files.put(p, sources.resolve(starter.resolve("test/jvm").relativize(p))));
        }
        Path helper = Path.of("org/apache/storm/utils/MockTupleHelpers.java");
        assumeTrue(Files.exists(release.resolve("storm-client/test/jvm").resolve(helper)), "storm-client's "
            + helper + " is unpacked from the source release by the build (after an older build: mvn clean)");
        files.put(release.resolve("storm-client/test/jvm").resolve(helper), sources.resolve(helper));
        for (Map.Entry<Path, Path> file : files.entrySet()) {
            Files.createDirectories(file.getValue().getParent());
            Files.copy(file.getKey(), file.getValue(), StandardCopyOption.REPLACE_EXISTING);
        }
        Map<String, String> notBuilt = new LinkedHashMap<>();
        Path classes = StormExamplesParityTest.compile(sources, work.resolve("classes"), libraries(), notBuilt);
        assertEquals(Map.of(), notBuilt, "storm-starter's tests compile");
        return classes;
    }
}
