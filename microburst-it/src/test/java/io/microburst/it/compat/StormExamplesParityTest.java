package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Apache Storm 2.8.3's example topologies (storm-starter, as its binary distribution ships them) on both local modes:
 * each example's main runs under {@code storm local} and under {@code microburst local}, and what they show is
 * compared: the exit code, the loggers of the example's own classes that logged, the DRPC results they print, and on
 * Microburst no task failure. The examples are not published as jars: with {@code -Dmicroburst.long=true} the test
 * takes them from Storm's source release, which the build unpacks (see {@link StormSourceRelease}); or pass
 * {@code -Dmicroburst.storm.dist=DIR}, any directory holding storm-starter's sources as
 * {@code examples/storm-starter/src/jvm} (Storm's binary distribution, or a checkout of its release tag). Otherwise the
 * test is skipped. {@code -Dmicroburst.storm.examples=Name,Name} runs only the examples of those simple class names. Storm's code is compiled
 * into {@code target/} at test time and never kept in this project. The verdict of every example, with the cause of
 * each failure, is written to {@code target/storm-examples/report.txt}.
 */
public class StormExamplesParityTest {
    private static final String VERSION = "2.8.3";
    private static final int SECONDS = Integer.getInteger("microburst.storm.examples.seconds", 15);
    /** The examples' own loggers; the comparison ignores the runtimes' own logging. */
    private static final Pattern EXAMPLE_LOGGER = Pattern.compile("^(INFO|WARN|ERROR)\\s+(org\\.apache\\.storm\\.starter\\S*)");
    /** What examples print as results (DRPC answers, printed values). */
    private static final Pattern RESULT = Pattern.compile("^(Result for .*|DRPC RESULT: .*|Reach of .*|REACH: .*|[a-z]+!!!)$");
    /** How Microburst reports a task that failed. */
    static final Pattern MICROBURST_FAILURE = Pattern.compile("failed in (open|prepare|execute|nextTuple)|"
        + "Halting|NoOutputException|ClassNotFoundException|NoClassDefFoundError");
    /** Examples that need a system this machine does not run (arguments cannot stand in for it). */
    private static final Map<String, String> NEEDS_OUTSIDE = Map.ofEntries(
        Map.entry("PrintSampleStream", "Twitter credentials and network access"),
        Map.entry("TridentKafkaClientWordCount", "a Kafka broker at localhost:9092"),
        Map.entry("TridentHBaseWindowingStoreTopology", "an HBase cluster"),
        Map.entry("PersistentWindowingTopology", "a Redis server at localhost:6379"),
        Map.entry("StatefulWordCount", "a Redis server at localhost:6379"),
        Map.entry("StateQueryExample", "a Redis server at localhost:6379"),
        Map.entry("WordCountToBolt", "a Redis server at localhost:6379"));
    /** Examples whose main runs for minutes by design (it prints statistics every 30 s, then kills the topology). */
    private static final Map<String, String> LONG_RUNNING = Map.of(
        "FastWordCountTopology", "5 minutes", "InOrderDeliveryTest", "25 minutes", "ThroughputVsLatency", "minutes");
    /** Examples whose printed results are counts that grow with time: compared with the numbers left out. */
    private static final Set<String> GROWING_COUNTS = Set.of("TridentWordCount", "TridentMapExample");
    /** Only these examples (simple class names, comma-separated), when given. */
    private static final String ONLY = System.getProperty("microburst.storm.examples", "");
    /** Arguments an example needs to show a result (the DRPC examples ask for their queries). */
    private static final Map<String, List<String>> ARGS = Map.of(
        "BasicDRPCTopology", List.of("drpc-example", "hello", "goodbye"),
        "BlobStoreAPIWordCountTopology", List.of("blobstore-example"));

    @Test
    void everyExampleRunsOnMicroburstLocalAsOnStormLocal() throws Exception {
        Path starter = starter();
        assumeTrue(starter != null, "Storm " + VERSION + "'s example topologies take minutes on both local modes: "
            + "-Dmicroburst.long=true runs them from Storm's source release, which the build unpacks, or pass "
            + "-Dmicroburst.storm.dist=<a directory holding examples/storm-starter>");
        Path work = Files.createDirectories(Path.of("target", "storm-examples").toAbsolutePath());
        Map<String, String> notBuilt = new LinkedHashMap<>();
        Path classes = compile(starter.resolve("src").resolve("jvm"), work.resolve("classes"), notBuilt);
        Map<String, byte[]> resources = new LinkedHashMap<>();
        Path multilang = starter.resolve("multilang").resolve("resources");
        if (Files.isDirectory(multilang)) {
            try (Stream<Path> files = Files.walk(multilang)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    resources.put("resources/" + multilang.relativize(f).toString().replace(File.separatorChar, '/'),
                        Files.readAllBytes(f));
                }
            }
        }
        // Storm's multi-lang adapters as its multilang-python and multilang-javascript modules publish them, as
        // storm-starter's own build packs them
        resources.put("resources/storm.py", LocalModes.resource(getClass(), "resources/storm.py"));
        resources.put("resources/storm.js", LocalModes.resource(getClass(), "resources/storm.js"));
        Path jar = LocalModes.jar(work.resolve("storm-starter.jar"), List.of(classes), resources);

        Map<String, String> verdicts = new LinkedHashMap<>();
        notBuilt.forEach((example, why) -> verdicts.put(example, "NOT BUILT: " + why));
        for (String main : mains(classes)) {
            String simple = main.substring(main.lastIndexOf('.') + 1);
            if (!ONLY.isBlank() && !List.of(ONLY.split(",")).contains(simple)) {
                continue;
            }
            if (NEEDS_OUTSIDE.containsKey(simple) && !(NEEDS_OUTSIDE.get(simple).contains("Redis") && redisListening())) {
                verdicts.put(main, "SKIPPED: needs " + NEEDS_OUTSIDE.get(simple));
                continue;
            }
            if (LONG_RUNNING.containsKey(simple)) {
                verdicts.put(main, "SKIPPED: its main runs for " + LONG_RUNNING.get(simple));
                continue;
            }
            List<String> args = ARGS.getOrDefault(simple, List.of());
            Path dir = Files.createDirectories(work.resolve(simple));
            LocalModes.Output storm = LocalModes.storm(dir, jar, SECONDS, main, args);
            LocalModes.Output microburst = LocalModes.microburst(dir, jar, SECONDS, main, args);
            verdicts.put(main, verdict(storm, microburst, GROWING_COUNTS.contains(simple)));
        }
        StringBuilder report = new StringBuilder();
        verdicts.forEach((example, verdict) -> report.append(example).append(": ").append(verdict).append('\n'));
        Files.writeString(work.resolve("report.txt"), report, StandardCharsets.UTF_8);
        assertTrue(verdicts.values().stream().noneMatch(v -> v.startsWith("FAIL")), "examples that differ:\n" + report);
    }

    /** PASS, or FAIL with the differences. */
    static String verdict(LocalModes.Output storm, LocalModes.Output microburst, boolean growingCounts) {
        List<String> causes = new ArrayList<>();
        if (storm.exitCode() != 0 && microburst.exitCode() == 0) {
            // Storm's LocalCluster itself gave up (on a loaded machine its supervisor can halt the process): no verdict
            return "STORM FAILED (exit code " + storm.exitCode() + "): " + firstError(storm);
        }
        if (storm.exitCode() != microburst.exitCode()) {
            causes.add("exit code " + microburst.exitCode() + " where Storm's is " + storm.exitCode());
        }
        Set<String> missing = new TreeSet<>(loggers(storm));
        missing.removeAll(loggers(microburst));
        if (!missing.isEmpty()) {
            causes.add("no log lines from " + missing);
        }
        Set<String> stormResults = results(storm, growingCounts);
        Set<String> microburstResults = results(microburst, growingCounts);
        if (!stormResults.equals(microburstResults)) {
            causes.add("results " + microburstResults + " where Storm's are " + stormResults);
        }
        // What a task logs while it is being stopped (a multi-lang subprocess killed with the worker) Storm logs too.
        String running = microburst.text();
        int stopping = running.indexOf("microburst: killing topology");
        if (stopping >= 0) {
            running = running.substring(0, stopping);
        }
        Matcher failure = MICROBURST_FAILURE.matcher(running);
        if (failure.find()) {
            int start = running.lastIndexOf('\n', failure.start()) + 1;
            int end = running.indexOf('\n', failure.end());
            causes.add("task failure: " + running.substring(start, end < 0 ? running.length() : end));
        }
        return causes.isEmpty() ? "PASS" : "FAIL: " + String.join("; ", causes);
    }

    private static Set<String> loggers(LocalModes.Output out) {
        Set<String> loggers = new TreeSet<>();
        for (String line : out.lines()) {
            Matcher m = EXAMPLE_LOGGER.matcher(line);
            if (m.find()) {
                loggers.add(m.group(1) + " " + m.group(2));
            }
        }
        return loggers;
    }

    private static Set<String> results(LocalModes.Output out, boolean growingCounts) {
        Set<String> results = new TreeSet<>();
        for (String line : out.lines()) {
            Matcher m = RESULT.matcher(line.trim());
            if (m.matches()) {
                results.add(growingCounts ? m.group(1).replaceAll("\\d+", "N") : m.group(1));
            }
        }
        return results;
    }

    private static String firstError(LocalModes.Output out) {
        return out.lines().stream().filter(l -> l.startsWith("ERROR")).findFirst().orElse("no ERROR line");
    }

    /** True when a Redis server answers at localhost:6379, where the Redis examples look for one. */
    private static boolean redisListening() {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", 6379), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** storm-starter in the unpacked distribution, or null. */
    private static Path starter() throws IOException {
        List<Path> candidates = new ArrayList<>();
        String dist = System.getProperty("microburst.storm.dist", System.getenv("MICROBURST_STORM_DIST"));
        if (dist != null && !dist.isBlank()) {
            candidates.add(Path.of(dist));
        }
        candidates.add(Path.of("target", "apache-storm-" + VERSION));
        Path fetched = StormSourceRelease.findOnLongRuns("examples/storm-starter/src/jvm");
        if (fetched != null) {
            candidates.add(fetched);
        }
        for (Path candidate : candidates) {
            Path starter = candidate.resolve("examples").resolve("storm-starter");
            if (Files.isDirectory(starter.resolve("src").resolve("jvm"))) {
                return starter;
            }
        }
        return null;
    }

    /**
     * Compiles the examples against this test's class path. A source that cannot compile here (it needs a library
     * that is not on the class path: HDFS, HBase, Kafka, Twitter) is left out, with the reason, and the rest compiled
     * again.
     */
    public static Path compile(Path sources, Path out, Map<String, String> notBuilt) throws IOException {
        return compile(sources, out, List.of(), notBuilt);
    }

    /** As {@link #compile(Path, Path, Map)}, with {@code libraries} (jars) on the class path as well. */
    static Path compile(Path sources, Path out, List<Path> libraries, Map<String, String> notBuilt)
        throws IOException {
        StringBuilder classPath = new StringBuilder(LocalModes.classPath());
        for (Path library : libraries) {
            classPath.append(File.pathSeparator).append(library);
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        Files.createDirectories(out);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = new ArrayList<>(walk.filter(p -> p.toString().endsWith(".java")).toList());
        }
        for (int round = 0; round < 10 && !files.isEmpty(); round++) {
            DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
            try (StandardJavaFileManager manager = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
                List<String> options = List.of("-d", out.toString(), "-cp", classPath.toString(), "-nowarn",
                    "-proc:none", "-encoding", "UTF-8");
                boolean ok = compiler.getTask(null, manager, diagnostics, options, null,
                    manager.getJavaFileObjectsFromPaths(files)).call();
                if (ok) {
                    return out;
                }
            }
            Set<Path> broken = new TreeSet<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR && d.getSource() != null) {
                    Path file = Path.of(d.getSource().toUri());
                    if (broken.add(file)) {
                        notBuilt.put(sources.relativize(file).toString(), d.getMessage(Locale.ROOT).lines().findFirst()
                            .orElse("does not compile"));
                    }
                }
            }
            if (broken.isEmpty()) {
                throw new AssertionError("the examples do not compile: " + diagnostics.getDiagnostics());
            }
            files.removeAll(broken);
        }
        return out;
    }

    /** Classes with a {@code public static void main(String[])}, by their source. */
    static List<String> mains(Path classes) throws IOException {
        List<String> mains = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(classes)) {
            for (Path f : walk.filter(p -> p.toString().endsWith(".class") && !p.toString().contains("$")).sorted()
                .toList()) {
                String name = classes.relativize(f).toString().replace(File.separatorChar, '.').replaceAll("\\.class$", "");
                try (java.net.URLClassLoader loader = new java.net.URLClassLoader(
                    new java.net.URL[] {classes.toUri().toURL()}, StormExamplesParityTest.class.getClassLoader())) {
                    Class<?> c = Class.forName(name, false, loader);
                    java.lang.reflect.Method main = c.getMethod("main", String[].class);
                    if (java.lang.reflect.Modifier.isStatic(main.getModifiers())) {
                        mains.add(name);
                    }
                } catch (NoSuchMethodException | ClassNotFoundException | LinkageError e) {
                    // not an example's entry point
                }
            }
        }
        return mains;
    }
}
