package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import io.microburst.it.support.WordCounting;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flux (flux-core 2.8.3 as Storm publishes it) on both runtimes: a YAML word count built by Flux's own parser and
 * builder gives the same counts on Microburst and on Storm's LocalCluster, and a multi-lang Flux topology (a Node.js
 * spout and a Python bolt, the scripts Storm ships in flux-core) runs unchanged under {@code microburst local}, as
 * under {@code storm local}, through Flux's main.
 */
class FluxParityTest {
    private static final Pattern LOGGED_WORD = Pattern.compile("LogInfoBolt - .*\\[\"?([^\\]\"]*)\"?\\]");
    /** What Storm logs when a multi-lang subprocess cannot start or dies. */
    private static final Pattern SUBPROCESS_TROUBLE = Pattern.compile(
        "NoOutputException|Pipe to subprocess|can't open file|Cannot find module|Halting process");
    /** The exit code storm-client reports for a multi-lang subprocess that died. */
    private static final Pattern SUBPROCESS_EXIT = Pattern.compile("exitCode:(-?\\d+)");
    private static final int SECONDS = 20;

    @TempDir
    Path dir;

    @Test
    void fluxYamlWordCountGivesTheSameCountsOnBothRuntimes() throws Exception {
        List<String> sentences = List.of("the cow jumped over the moon", "an apple a day keeps the doctor away",
            "four score and seven years ago");
        List<String> expected = WordCounting.expected(sentences);
        Path yaml = dir.resolve("words.yaml");
        Files.write(yaml, LocalModes.resource(getClass(), "io/microburst/it/compat/flux/words.yaml"));
        Map<String, List<String>> byRuntime = new TreeMap<>();
        try (URLClassLoader flux = new URLClassLoader(new URL[] {fluxCore().toUri().toURL()}, getClass().getClassLoader())) {
            for (String runtime : List.of(Runtimes.STORM, Runtimes.MICROBURST)) {
                try (ILocalCluster cluster = Runtimes.start(runtime)) {
                    String scope = Recorder.openScope(runtime + "-flux");
                    String name = Topologies.uniqueName("flux-words");
                    try {
                        Properties properties = new Properties();
                        properties.setProperty("scope", scope);
                        Built built = build(flux, yaml, properties);
                        assertEquals("flux-words", built.name());
                        Map<String, Object> conf = new HashMap<>(Topologies.baseConf());
                        conf.putAll(built.conf());
                        cluster.submitTopology(name, conf, built.topology());
                        Await.until(runtime + " Flux word count to deliver " + expected.size() + " counts",
                            () -> WordCounting.received(scope).size() >= expected.size(), Await.DEFAULT_LIMIT,
                            () -> WordCounting.received(scope).toString());
                        Await.never(runtime + " Flux word count to deliver more",
                            () -> WordCounting.received(scope).size() > expected.size(), Duration.ofMillis(500));
                        byRuntime.put(runtime, WordCounting.received(scope));
                    } finally {
                        Topologies.killAndAwaitGone(cluster, name);
                        Recorder.closeScope(scope);
                    }
                }
            }
        }
        assertEquals(Map.of(Runtimes.MICROBURST, expected, Runtimes.STORM, expected), byRuntime);
    }

    @Test
    void multiLangFluxTopologyRunsUnderBothLocalCommands() throws Exception {
        assumeTrue(available("python3", "--version"), "python3 is not installed (Debian: apt-get install python3)");
        assumeTrue(available("node", "--version"), "node is not installed (Debian: apt-get install nodejs)");
        Map<String, byte[]> extra = new LinkedHashMap<>();
        extra.put("multilang.yaml", LocalModes.resource(getClass(), "io/microburst/it/compat/flux/multilang.yaml"));
        extra.put("resources/storm.py", LocalModes.resource(getClass(), "resources/storm.py"));
        extra.put("resources/storm.js", LocalModes.resource(getClass(), "resources/storm.js"));
        Path jar = LocalModes.jar(dir.resolve("flux-multilang.jar"), List.of(fluxCore()), extra);
        Set<String> vocabulary = vocabulary();
        List<String> args = List.of("--local", "--resource", "/multilang.yaml", "--no-splash");
        for (LocalModes.Output out : List.of(
            LocalModes.storm(dir, jar, SECONDS, "org.apache.storm.flux.Flux", args),
            LocalModes.microburst(dir, jar, SECONDS, "org.apache.storm.flux.Flux", args))) {
            assertTrue(out.exitCode() == 0 || stormHaltedByItsOwnStop(out), out.mode() + " exit code " + out.exitCode()
                + "\n" + out.text());
            List<String> words = loggedWords(out);
            assertTrue(words.size() >= 20, out.mode() + " logged " + words.size() + " words\n" + out.text());
            Set<String> unknown = new TreeSet<>(words);
            unknown.removeAll(vocabulary);
            assertEquals(Set.of(), unknown, out.mode() + " logged words that no sentence has\n" + out.text());
            // While the topology runs, no subprocess trouble on Microburst. At the stop, storm-client's ShellBolt
            // itself may report its subprocess broken (Storm's local mode does too), so the stop is not judged here.
            String running = out.text();
            int stop = running.indexOf("microburst: killing topology");
            running = stop < 0 ? running : running.substring(0, stop);
            assertTrue(out.mode().equals(LocalModes.STORM) || !SUBPROCESS_TROUBLE.matcher(running).find(),
                out.mode() + " reports trouble with a subprocess\n" + out.text());
        }
    }

    /**
     * Whether Storm's local mode halted its own JVM at its stop, which it may do under load: the stop terminates the
     * multi-lang subprocesses (exit code 143) while an executor still reads from one, and storm-client halts the worker
     * on that executor's error. Any other subprocess exit, or no halt, is not this.
     */
    private static boolean stormHaltedByItsOwnStop(LocalModes.Output out) {
        if (!out.mode().equals(LocalModes.STORM) || !out.text().contains("Halting process: Worker died")) {
            return false;
        }
        Matcher exit = SUBPROCESS_EXIT.matcher(out.text());
        boolean any = false;
        while (exit.find()) {
            if (!exit.group(1).equals("143")) {
                return false;
            }
            any = true;
        }
        return any;
    }

    /** The words of the sentences randomsentence.js picks from, read from the script Storm ships. */
    private static Set<String> vocabulary() throws IOException {
        String script;
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(fluxCore().toFile())) {
            try (InputStream in = jar.getInputStream(jar.getEntry("resources/randomsentence.js"))) {
                script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        Set<String> words = new TreeSet<>();
        Matcher m = Pattern.compile("\"([a-z ]+)\"").matcher(script.substring(script.indexOf("SENTENCES")));
        while (m.find()) {
            words.addAll(List.of(m.group(1).split(" ")));
        }
        assertTrue(words.size() > 10, "no sentences found in randomsentence.js");
        return words;
    }

    private static List<String> loggedWords(LocalModes.Output out) {
        List<String> words = new ArrayList<>();
        for (String line : out.lines()) {
            Matcher m = LOGGED_WORD.matcher(line);
            if (m.find()) {
                words.add(m.group(1));
            }
        }
        return words;
    }

    private record Built(String name, Map<String, Object> conf, StormTopology topology) {
    }

    /** Flux's own path from a YAML file to a topology: FluxParser, FluxBuilder.buildConfig, FluxBuilder.buildTopology. */
    private static Built build(ClassLoader flux, Path yaml, Properties properties) throws Exception {
        try {
            Class<?> parser = flux.loadClass("org.apache.storm.flux.parser.FluxParser");
            Class<?> builder = flux.loadClass("org.apache.storm.flux.FluxBuilder");
            Class<?> defClass = flux.loadClass("org.apache.storm.flux.model.TopologyDef");
            Class<?> contextClass = flux.loadClass("org.apache.storm.flux.model.ExecutionContext");
            Object def = parser.getMethod("parseFile", String.class, boolean.class, boolean.class, Properties.class,
                boolean.class).invoke(null, yaml.toString(), false, true, properties, false);
            Config conf = (Config) builder.getMethod("buildConfig", defClass).invoke(null, def);
            Object context = contextClass.getConstructor(defClass, Config.class).newInstance(def, conf);
            StormTopology topology = (StormTopology) builder.getMethod("buildTopology", contextClass).invoke(null, context);
            String name = (String) defClass.getMethod("getName").invoke(def);
            return new Built(name, conf, topology);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** flux-core as the build copied it (see the POM: it cannot be a Maven dependency). */
    static Path fluxCore() throws IOException {
        Path dir = Path.of("target", "flux");
        try (java.util.stream.Stream<Path> files = Files.exists(dir) ? Files.list(dir) : java.util.stream.Stream.empty()) {
            return files.filter(p -> p.getFileName().toString().startsWith("flux-core-")).findFirst()
                .orElseThrow(() -> new AssertionError(dir.toAbsolutePath() + " has no flux-core jar: the build copies "
                    + "it in process-test-resources (mvn -pl microburst-it -am verify)"));
        }
    }

    private static boolean available(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }
}
