package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.cli.Main;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Storm 2.8.3's own end-to-end tests, the integration-test module of its source release (TestNG: DemoTest,
 * SlidingWindowTest, TumblingWindowTest), run unchanged against {@code microburst server} as Storm users run them
 * against a cluster: topologies submitted through Nimbus ({@code nimbus.seeds} of the storm.yaml named by
 * {@code -Dstorm.conf.file}), followed over Thrift (topology info, component page, executor stats), and their worker
 * logs read through the logviewer on port 8000 of each executor's host.
 *
 * <p>The module is compiled from the source release against the libraries Storm builds it with (copied to
 * {@code target/storm-it-libs}), packed into a topology jar with them as its shade plugin does, and run with TestNG
 * in a process of its own against a {@code microburst server} process. The module comes from Storm's source release,
 * which the build unpacks (see {@link StormSourceRelease}); without it the test is skipped.
 * The default build runs DemoTest (under a minute); {@code -Dmicroburst.long=true} runs all three classes (about 6
 * minutes, mostly the time windows), and {@code -Dmicroburst.storm.it.tests=DemoTest,...} names the classes to run.
 *
 * <p>Some of Storm's tests fail on any cluster, and are expected to: the window tests with a size or slide of 0 or
 * less assert that building the topology throws, then build it again (IllegalArgumentException), and every window
 * test that gets as far as reading its decorated log lines fails parsing their times ({@code DecoratedLogLine} parses
 * a time without zone as a {@code ZonedDateTime}: DateTimeParseException), which it only does once the topology ran,
 * its progress was checked over Thrift and the lines were fetched from the logviewer. With
 * {@code -Dmicroburst.storm.it.parseLogTimes=true} that one line is compiled to read the time as local time, and the
 * window tests then compare every window's contents with the spout's emits: each must pass.
 * Results go to {@code target/storm-integration-test/report.txt}.
 */
class StormIntegrationTestModuleTest {
    private static final String VERSION = "2.8.3";
    private static final int LOGVIEWER_PORT = 8000;
    private static final String ONLY = System.getProperty("microburst.storm.it.tests",
        StormSourceRelease.LONG_RUN ? "DemoTest,SlidingWindowTest,TumblingWindowTest" : "DemoTest");
    private static final boolean PARSE_LOG_TIMES = Boolean.getBoolean("microburst.storm.it.parseLogTimes");
    private static final Map<String, String> CLASSES = Map.of("DemoTest", "org.apache.storm.st.DemoTest",
        "SlidingWindowTest", "org.apache.storm.st.tests.window.SlidingWindowTest",
        "TumblingWindowTest", "org.apache.storm.st.tests.window.TumblingWindowTest");
    private static final String ZONED_PARSE = "ZonedDateTime.parse(splitOnDecorator.get(0).substring(0, DATE_LEN), DATE_FORMAT)";
    private static final Pattern SERVING = Pattern.compile("Nimbus Thrift on ([^:\\s]+):(\\d+)");
    private static final long RUN_LIMIT_MINUTES = 40;

    @Test
    void stormsIntegrationTestsRunUnchangedAgainstMicroburstServer() throws Exception {
        Path module = module();
        assumeTrue(module != null, "Storm " + VERSION + "'s integration-test module is in its source release. "
            + StormSourceRelease.HOW_TO);
        assumeTrue(portFree(LOGVIEWER_PORT), "Storm's integration tests read worker logs from a logviewer on port "
            + LOGVIEWER_PORT + ", which another process holds here");
        Path work = Path.of("target", "storm-integration-test").toAbsolutePath();
        delete(work);
        List<Path> libs;
        try (Stream<Path> jars = Files.list(Path.of("target", "storm-it-libs").toAbsolutePath())) {
            libs = jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        Path mainClasses = compile(List.of(module.resolve("src/main/java")), work.resolve("main-classes"), libs, false);
        List<Path> testPath = new ArrayList<>(libs);
        testPath.add(mainClasses);
        Path testClasses = compile(List.of(module.resolve("src/test/java")), work.resolve("test-classes"), testPath,
            PARSE_LOG_TIMES);
        Path run = Files.createDirectories(work.resolve("run"));
        // the module's shaded jar: its classes and its compile-scope libraries (storm-client is the cluster's)
        List<Path> shaded = new ArrayList<>(List.of(mainClasses));
        libs.stream().filter(l -> !l.getFileName().toString().matches("(testng|jcommander)-.*")).forEach(shaded::add);
        LocalModes.jar(run.resolve("storm-integration-test-" + VERSION + ".jar"), shaded, Map.of());

        Process server = startServer(work);
        try {
            Matcher serving = awaitServing(server, work.resolve("server-output.txt"));
            Path conf = work.resolve("storm.yaml");
            Files.writeString(conf, "nimbus.seeds: [\"" + serving.group(1) + "\"]\nnimbus.thrift.port: "
                + serving.group(2) + "\n");
            List<String> classes = new ArrayList<>();
            for (String name : ONLY.split(",")) {
                assertTrue(CLASSES.containsKey(name.trim()), "no such test class in the module: " + name);
                classes.add(CLASSES.get(name.trim()));
            }
            long start = System.nanoTime();
            runTestNg(run, conf, libs, mainClasses, testClasses, classes, work);
            long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);

            Map<String, String> verdicts = verdicts(work.resolve("testng").resolve("testng-results.xml"));
            StringBuilder report = new StringBuilder("Storm " + VERSION + " integration-test against microburst server"
                + (PARSE_LOG_TIMES ? " (DecoratedLogLine reading local times)" : " (unchanged)") + ", " + seconds
                + " s\n");
            verdicts.forEach((test, verdict) -> report.append(test).append(": ").append(verdict).append('\n'));
            Files.writeString(work.resolve("report.txt"), report, StandardCharsets.UTF_8);
            assertFalse(verdicts.isEmpty(), "no test ran:\n" + Files.readString(work.resolve("testng-output.txt")));
            assertTrue(verdicts.values().stream().noneMatch(v -> v.startsWith("GAP")), "failures only Microburst has:\n"
                + report);
            if (classes.contains(CLASSES.get("DemoTest"))) {
                assertEquals("PASS", verdicts.get("DemoTest.testExclamationTopology[]"), report.toString());
            }
        } finally {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** The unpacked source release's integration-test module (see {@link StormSourceRelease}), or null. */
    private static Path module() {
        Path release = StormSourceRelease.find("integration-test/src/test/java/org/apache/storm/st");
        return release == null ? null : release.resolve("integration-test");
    }

    private static boolean portFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    /**
     * Compiles the module's sources as Maven would (the class path: the libraries, then the test's, which holds
     * storm-client and JUnit). With {@code parseLogTimes}, DecoratedLogLine reads its times as local times.
     */
    private static Path compile(List<Path> roots, Path out, List<Path> libraries, boolean parseLogTimes)
        throws IOException {
        Files.createDirectories(out);
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root)) {
                files.addAll(walk.filter(p -> p.toString().endsWith(".java")).toList());
            }
        }
        if (parseLogTimes) {
            Path sources = Files.createDirectories(out.resolveSibling(out.getFileName() + "-sources"));
            List<Path> copies = new ArrayList<>();
            for (Path file : files) {
                String text = Files.readString(file, StandardCharsets.UTF_8);
                if (file.getFileName().toString().equals("DecoratedLogLine.java")) {
                    assertTrue(text.contains(ZONED_PARSE), "DecoratedLogLine changed: " + file);
                    text = text.replace(ZONED_PARSE, "java.time.LocalDateTime.parse(splitOnDecorator.get(0).substring(0, "
                        + "DATE_LEN), DATE_FORMAT).atZone(java.time.ZoneId.systemDefault())");
                }
                Path copy = sources.resolve(file.getFileName().toString().replace(".java", "") + copies.size() + ".d")
                    .resolve(file.getFileName());
                Files.createDirectories(copy.getParent());
                Files.writeString(copy, text, StandardCharsets.UTF_8);
                copies.add(copy);
            }
            files = copies;
        }
        StringBuilder classPath = new StringBuilder();
        for (Path library : libraries) {
            classPath.append(library).append(File.pathSeparator);
        }
        classPath.append(LocalModes.classPath());
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager manager = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
            StandardCharsets.UTF_8)) {
            boolean ok = compiler.getTask(null, manager, diagnostics, List.of("-d", out.toString(), "-cp",
                classPath.toString(), "-nowarn", "-proc:none", "-encoding", "UTF-8"), null,
                manager.getJavaFileObjectsFromPaths(files)).call();
            assertTrue(ok, "Storm's integration-test module does not compile: " + diagnostics.getDiagnostics());
        }
        return out;
    }

    /** {@code microburst server} in a process of its own, with the command line's log configuration. */
    private static Process startServer(Path work) throws IOException {
        Path log4j = work.resolve("server-log4j2.xml");
        URL cli = Main.class.getProtectionDomain().getCodeSource().getLocation();
        URL config = Files.isDirectory(Path.of(toUri(cli))) ? Path.of(toUri(cli)).resolve("log4j2.xml").toUri().toURL()
            : new URL("jar:" + cli + "!/log4j2.xml");
        try (InputStream in = config.openStream()) {
            Files.copy(in, log4j);
        }
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx768m",
            "--add-opens", "java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "-Dlog4j2.configurationFile=" + log4j, "-cp", LocalModes.classPath(), Main.class.getName(),
            "server", "--dir", work.resolve("server-data").toString(), "--port", "0", "--ui-port", "0",
            "-c", "logviewer.port=" + LOGVIEWER_PORT));
        return new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true).start();
    }

    private static java.net.URI toUri(URL url) throws IOException {
        try {
            return url.toURI();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
    }

    /**
     * Copies the server's output to a file and returns its "Nimbus Thrift on HOST:PORT" line, once it says it serves;
     * skips the test when the logviewer could not have its port.
     */
    private static Matcher awaitServing(Process server, Path output) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = lines.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = SERVING.matcher(line);
            if (m.find()) {
                assumeTrue(line.contains(":" + LOGVIEWER_PORT + "/api/v1/"), "the server has no logviewer on port "
                    + LOGVIEWER_PORT + " (another process took it): " + line);
                Thread copier = new Thread(() -> copy(lines, output), "server-output");
                copier.setDaemon(true);
                Files.writeString(output, seen);
                copier.start();
                return m;
            }
        }
        throw new AssertionError("microburst server did not start:\n" + seen);
    }

    private static void copy(BufferedReader lines, Path output) {
        try (var out = Files.newBufferedWriter(output, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND)) {
            String line;
            while ((line = lines.readLine()) != null) {
                out.write(line);
                out.newLine();
            }
        } catch (IOException ended) {
            // the server stopped
        }
    }

    /** TestNG on the classes, from the folder holding only the topology jar (TopoWrap submits the jar it finds there). */
    private static void runTestNg(Path run, Path conf, List<Path> libs, Path mainClasses, Path testClasses,
                                  List<String> classes, Path work) throws Exception {
        StringBuilder classPath = new StringBuilder();
        for (Path lib : libs) {
            classPath.append(lib).append(File.pathSeparator);
        }
        classPath.append(mainClasses).append(File.pathSeparator).append(testClasses).append(File.pathSeparator)
            .append(LocalModes.classPath());
        List<String> command = List.of(java(), "-Xmx512m", "-Dstorm.conf.file=" + conf,
            "-Dregression.downloadWorkerLogs=false", "-cp", classPath.toString(), "org.testng.TestNG",
            "-d", work.resolve("testng").toString(), "-listener", "org.apache.storm.st.meta.TestngListener",
            "-testclass", String.join(",", classes));
        Path output = work.resolve("testng-output.txt");
        Process testng = new ProcessBuilder(command).directory(run.toFile()).redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();
        try {
            if (!testng.waitFor(RUN_LIMIT_MINUTES, TimeUnit.MINUTES)) {
                throw new AssertionError("Storm's integration tests did not end within " + RUN_LIMIT_MINUTES
                    + " minutes; see " + output);
            }
        } finally {
            testng.destroyForcibly();
        }
    }

    /**
     * Each test method run (class.method[parameters]): PASS; FAIL, as on any cluster, with the reason; or GAP, a failure
     * that is Microburst's, with its exception.
     */
    static Map<String, String> verdicts(Path results) throws Exception {
        Map<String, String> verdicts = new LinkedHashMap<>();
        NodeList methods = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(results.toFile())
            .getElementsByTagName("test-method");
        AtomicInteger index = new AtomicInteger();
        for (int i = 0; i < methods.getLength(); i++) {
            Element method = (Element) methods.item(i);
            if ("true".equals(method.getAttribute("is-config"))) {
                continue;
            }
            Element klass = (Element) method.getParentNode();
            String simple = klass.getAttribute("name").substring(klass.getAttribute("name").lastIndexOf('.') + 1);
            List<Integer> params = new ArrayList<>();
            NodeList values = method.getElementsByTagName("value");
            for (int v = 0; v < values.getLength(); v++) {
                params.add(Integer.parseInt(values.item(v).getTextContent().trim()));
            }
            String name = simple + "." + method.getAttribute("name") + params;
            if (verdicts.containsKey(name)) {
                name += "#" + index.incrementAndGet();
            }
            String status = method.getAttribute("status");
            if ("PASS".equals(status)) {
                verdicts.put(name, "PASS");
                continue;
            }
            NodeList exceptions = method.getElementsByTagName("exception");
            Element exception = exceptions.getLength() == 0 ? null : (Element) exceptions.item(0);
            String type = exception == null ? "" : exception.getAttribute("class");
            NodeList messages = exception == null ? null : exception.getElementsByTagName("message");
            String message = messages == null || messages.getLength() == 0 ? ""
                : messages.item(0).getTextContent().trim().lines().findFirst().orElse("");
            boolean invalidWindow = params.stream().anyMatch(p -> p <= 0);
            if (invalidWindow && type.equals(IllegalArgumentException.class.getName())) {
                verdicts.put(name, "FAIL as on any cluster: the test builds the topology again after asserting that it "
                    + "throws (" + message + ")");
            } else if (!invalidWindow && !PARSE_LOG_TIMES && type.equals("java.time.format.DateTimeParseException")) {
                verdicts.put(name, "FAIL as on any cluster: DecoratedLogLine cannot parse the time of the decorated log "
                    + "lines it fetched (" + message + ")");
            } else {
                verdicts.put(name, "GAP: " + status + " " + type + ": " + message);
            }
        }
        return verdicts;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
