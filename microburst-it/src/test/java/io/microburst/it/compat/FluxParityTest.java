package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.it.durable.KafkaBroker;
import io.microburst.it.support.Await;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Runtimes;
import io.microburst.it.support.Topologies;
import io.microburst.it.support.WordCounting;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flux (flux-core 2.8.3 as Storm publishes it) on both runtimes: a YAML word count built by Flux's own parser and
 * builder gives the same counts on Microburst and on Storm's LocalCluster, and a multi-lang Flux topology (a Node.js
 * spout and a Python bolt, the scripts Storm ships in flux-core) runs unchanged under {@code microburst local}, as
 * under {@code storm local}, through Flux's main. The YAML examples of Storm 2.8.3's flux-examples module run under
 * both local commands too, when its sources are at hand (see {@link #fluxExamplesRunOnMicroburstLocalAsOnStormLocal}).
 */
class FluxParityTest {
    private static final Pattern LOGGED_WORD = Pattern.compile("LogInfoBolt - .*\\[\"?([^\\]\"]*)\"?\\]");
    /** What Storm logs when a multi-lang subprocess cannot start or dies. */
    private static final Pattern SUBPROCESS_TROUBLE = Pattern.compile(
        "NoOutputException|Pipe to subprocess|can't open file|Cannot find module|Halting process");
    /** The exit code storm-client reports for a multi-lang subprocess that died. */
    private static final Pattern SUBPROCESS_EXIT = Pattern.compile("exitCode:(-?\\d+)");
    private static final int SECONDS = 20;
    /** The words TestWordSpout emits. */
    private static final Set<String> TEST_WORDS = Set.of("nathan", "mike", "jackson", "golda", "bertels");
    /** A counter's output as LogInfoBolt logs it: [word, count]. */
    private static final Pattern LOGGED_COUNT = Pattern.compile("LogInfoBolt - .*\\[(\\w+), (\\d+)\\]");
    /** A window's size as TestPrintBolt prints it. */
    private static final Pattern PRINTED_WINDOW = Pattern.compile("^source: bolt-1:\\d+, .*\\[(\\d+)\\]");
    private static final String STORM_VERSION = "2.8.3";
    private static final int FLUX_EXAMPLE_SECONDS = 15;
    /** kafka_spout.yaml with a group.id for the spout's consumer, as a user makes it work. */
    private static final String KAFKA_WITH_GROUP = "kafka_spout+group.id";

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
     * The YAML topologies of Storm 2.8.3's {@code flux/flux-examples} under {@code storm local} and {@code microburst
     * local}, through Flux's main, as the module's README runs them. Its sources are not on Maven Central as a jar but
     * are in Storm's source release, which is; the build unpacks it, and {@code -Dmicroburst.long=true} runs them from
     * there (or {@code -Dmicroburst.storm.dist} names a directory holding {@code flux/flux-examples}).
     * The module's classes are compiled against this test's class path and flux-core; {@code simple_hdfs.yaml} needs
     * storm-hdfs and Hadoop's client, which the module's own shaded jar bundles: build it in the source release
     * ({@code mvn package -pl storm-checkstyle,flux,flux/flux-wrappers,flux/flux-core,flux/flux-examples}) and name it
     * with {@code -Dmicroburst.flux.examples.jar}. The Kafka example reads from a broker this test starts (KRaft), the
     * YAML's {@code localhost:9092} replaced by its address; the HDFS example writes to {@code file:///}. Compared:
     * exit codes, the word counts the topologies log (each word counted 1, 2, 3, ... on both), the windows printed,
     * the words read from Kafka, the records written to files. Verdicts go to
     * {@code target/storm-examples/flux/flux-report.txt}.
     */
    @Test
    void fluxExamplesRunOnMicroburstLocalAsOnStormLocal() throws Exception {
        Path module = fluxExamplesModule();
        assumeTrue(module != null, "Storm " + STORM_VERSION + "'s flux-examples take minutes on both local modes: "
            + "-Dmicroburst.long=true runs them from Storm's source release, which the build unpacks, or pass "
            + "-Dmicroburst.storm.dist=<a directory holding flux/flux-examples>");
        Path work = Files.createDirectories(Path.of("target", "storm-examples", "flux").toAbsolutePath());
        Map<String, String> verdicts = new LinkedHashMap<>();
        Path jar = fluxExamplesJar(module, work, verdicts);
        Path resources = module.resolve("src").resolve("main").resolve("resources");
        boolean python = available("python3", "--version");
        deleteTree(work.resolve("kafka")); // a broker formats its storage afresh each time
        try (KafkaBroker kafka = python ? KafkaBroker.start(Files.createDirectories(work.resolve("kafka"))) : null) {
            List<String> sentences = List.of("the cow jumped over the moon", "an apple a day keeps the doctor away",
                "four score and seven years ago", "snow white and the seven dwarfs", "i am at two with nature");
            if (kafka != null) {
                produce(kafka.bootstrap(), "myKafkaTopic", sentences);
            }
            for (String example : List.of("simple_wordcount", "simple_windowing", "simple_stateful_wordcount",
                "kafka_spout", KAFKA_WITH_GROUP, "simple_hdfs", "simple_hbase")) {
                String yamlName = example.equals(KAFKA_WITH_GROUP) ? "kafka_spout" : example;
                String yamlText = Files.readString(resources.resolve(yamlName + ".yaml"), StandardCharsets.UTF_8);
                if (yamlName.equals("kafka_spout")) {
                    if (kafka == null) {
                        verdicts.put(example, "SKIPPED: python3 is not installed (Debian: apt-get install python3)");
                        continue;
                    }
                    yamlText = yamlText.replace("localhost:9092", kafka.bootstrap());
                    if (example.equals(KAFKA_WITH_GROUP)) {
                        // as shipped the spout's consumer has no group.id, which Kafka's consumer refuses on both
                        yamlText = yamlText.replace("\"key.deserializer\" :",
                            "\"group.id\" : \"fluxKafkaExample\", \"key.deserializer\" :");
                    }
                }
                if (example.equals("simple_hdfs") && !hasEntry(jar, "org/apache/storm/hdfs/bolt/HdfsBolt.class")) {
                    verdicts.put(example, "SKIPPED: needs storm-hdfs and Hadoop's client: build flux-examples in "
                        + "Storm's source release (mvn package) and pass -Dmicroburst.flux.examples.jar=<its jar>");
                    continue;
                }
                Path dir = Files.createDirectories(work.resolve(example));
                Path yaml = dir.resolve(yamlName + ".yaml");
                Files.writeString(yaml, yamlText, StandardCharsets.UTF_8);
                List<LocalModes.Output> outputs = new ArrayList<>();
                for (String mode : List.of(LocalModes.STORM, LocalModes.MICROBURST)) {
                    List<String> args = new ArrayList<>(List.of("--local", yaml.toString(), "--no-splash"));
                    Path files = dir.resolve("files-" + mode.replace(' ', '-'));
                    deleteTree(files);
                    if (example.equals("simple_hdfs") || example.equals("simple_hbase")) {
                        Path properties = dir.resolve(mode.replace(' ', '-') + ".properties");
                        Files.writeString(properties, example.equals("simple_hdfs")
                            ? "hdfs.url=file:///\nhdfs.write.dir=" + files.resolve("incoming") + "\nhdfs.dest.dir="
                                + files.resolve("complete") + "\n"
                            : "hbase.rootdir=file://" + files.resolve("hbase") + "\nhbase.zookeeper.quorum=127.0.0.1\n",
                            StandardCharsets.UTF_8);
                        args.addAll(List.of("--filter", properties.toString()));
                    }
                    outputs.add(mode.equals(LocalModes.STORM)
                        ? LocalModes.storm(dir, jar, FLUX_EXAMPLE_SECONDS, "org.apache.storm.flux.Flux", args)
                        : LocalModes.microburst(dir, jar, FLUX_EXAMPLE_SECONDS, "org.apache.storm.flux.Flux", args));
                }
                verdicts.put(example, fluxVerdict(example, outputs.get(0), outputs.get(1), sentences,
                    dir.resolve("files-" + LocalModes.STORM.replace(' ', '-')),
                    dir.resolve("files-" + LocalModes.MICROBURST.replace(' ', '-'))));
            }
        }
        StringBuilder report = new StringBuilder();
        verdicts.forEach((example, verdict) -> report.append(example).append(": ").append(verdict).append('\n'));
        Files.writeString(work.resolve("flux-report.txt"), report, StandardCharsets.UTF_8);
        assertFalse(verdicts.values().stream().anyMatch(v -> v.startsWith("FAIL")), "examples that differ:\n" + report);
    }

    /** PASS (with what both did), STORM FAILED (with both errors), or FAIL with the differences. */
    private static String fluxVerdict(String example, LocalModes.Output storm, LocalModes.Output microburst,
                                      List<String> sentences, Path stormFiles, Path microburstFiles) throws IOException {
        if (storm.exitCode() != 0) {
            return "STORM FAILED (exit code " + storm.exitCode() + "): " + firstError(storm) + "; Microburst: exit code "
                + microburst.exitCode() + ", " + firstError(microburst);
        }
        List<String> causes = new ArrayList<>();
        if (storm.exitCode() != microburst.exitCode()) {
            causes.add("exit code " + microburst.exitCode() + " where Storm's is " + storm.exitCode());
        }
        String running = microburst.text();
        int stopping = running.indexOf("microburst: killing topology");
        Matcher failure = StormExamplesParityTest.MICROBURST_FAILURE.matcher(
            stopping < 0 ? running : running.substring(0, stopping));
        if (failure.find()) {
            causes.add("task failure near: " + failure.group());
        }
        if (microburst.text().contains("NoClassDefFoundError") && !storm.text().contains("NoClassDefFoundError")) {
            causes.add("NoClassDefFoundError where Storm has none");
        }
        String what;
        switch (example) {
            case "simple_windowing" -> {
                String stormWindows = windows(storm);
                String microburstWindows = windows(microburst);
                what = "windows " + stormWindows + " on Storm, " + microburstWindows + " on Microburst";
                if (!microburstWindows.startsWith("3 then 5 x")) {
                    causes.add("windows printed: " + microburstWindows);
                }
            }
            case "simple_hdfs" -> {
                List<String> stormRecords = records(stormFiles);
                List<String> microburstRecords = records(microburstFiles);
                what = stormRecords.size() + " records written on Storm, " + microburstRecords.size()
                    + " on Microburst";
                Set<String> unknown = new TreeSet<>(microburstRecords);
                unknown.removeAll(TEST_WORDS);
                if (microburstRecords.isEmpty() || !unknown.isEmpty()) {
                    causes.add("records written: " + microburstRecords.size() + ", unknown " + unknown);
                }
            }
            default -> {
                Map<String, Integer> stormCounts = counts(storm, causes, LocalModes.STORM);
                Map<String, Integer> microburstCounts = counts(microburst, causes, LocalModes.MICROBURST);
                causes.removeIf(c -> c.startsWith(LocalModes.STORM));
                what = "counts " + stormCounts + " on Storm, " + microburstCounts + " on Microburst";
                if (example.equals(KAFKA_WITH_GROUP)) {
                    Map<String, Integer> expected = new TreeMap<>();
                    for (String sentence : sentences) {
                        for (String word : sentence.split(" ")) {
                            expected.merge(word, 1, Integer::sum);
                        }
                    }
                    if (!microburstCounts.equals(expected)) {
                        causes.add("counted " + microburstCounts + " where the topic holds " + expected);
                    }
                } else if (microburstCounts.isEmpty() || !TEST_WORDS.containsAll(microburstCounts.keySet())) {
                    causes.add("counted " + microburstCounts);
                }
            }
        }
        return (causes.isEmpty() ? "PASS: " : "FAIL: " + String.join("; ", causes) + "; ") + what;
    }

    /**
     * The last count logged for each word; a count that is not the word's previous one plus one (a tuple counted twice,
     * or one lost) is added to {@code causes}, prefixed with the mode.
     */
    private static Map<String, Integer> counts(LocalModes.Output out, List<String> causes, String mode) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : out.lines()) {
            Matcher m = LOGGED_COUNT.matcher(line);
            if (m.find()) {
                int previous = counts.getOrDefault(m.group(1), 0);
                int count = Integer.parseInt(m.group(2));
                if (count != previous + 1) {
                    causes.add(mode + " counted " + m.group(1) + " " + count + " after " + previous);
                }
                counts.put(m.group(1), count);
            }
        }
        return counts;
    }

    /** The window sizes printed, as "first then last x n": a count window of 5 sliding by 3 gives 3, then 5s. */
    private static String windows(LocalModes.Output out) {
        List<String> sizes = new ArrayList<>();
        for (String line : out.lines()) {
            Matcher m = PRINTED_WINDOW.matcher(line);
            if (m.find()) {
                sizes.add(m.group(1));
            }
        }
        if (sizes.isEmpty()) {
            return "none";
        }
        List<String> rest = sizes.subList(1, sizes.size());
        Set<String> distinct = new TreeSet<>(rest);
        return sizes.get(0) + " then " + (distinct.size() == 1 ? distinct.iterator().next() : distinct.toString())
            + " x " + rest.size();
    }

    /** The first field of every record in the files written under {@code dir} (Hadoop's checksum files left out). */
    private static List<String> records(Path dir) throws IOException {
        List<String> records = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return records;
        }
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile)
                .filter(p -> !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    if (!line.isBlank()) {
                        records.add(line.split("\\|")[0]);
                    }
                }
            }
        }
        return records;
    }

    private static String firstError(LocalModes.Output out) {
        return out.lines().stream().filter(l -> (l.contains("Exception: ") || l.contains("Error: "))
            && !l.contains("InvocationTargetException") && !l.trim().startsWith("at ")).findFirst()
            .orElse("(no error printed)").trim();
    }

    private static void produce(String bootstrap, String topic, List<String> sentences) throws Exception {
        Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties)) {
            for (String sentence : sentences) {
                producer.send(new ProducerRecord<>(topic, sentence)).get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static boolean hasEntry(Path jar, String name) throws IOException {
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
            return file.getEntry(name) != null;
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /**
     * The topology jar: the module's shaded jar named by {@code -Dmicroburst.flux.examples.jar}, or its classes compiled
     * here with its resources and flux-core (classes that need a library this test does not have are NOT BUILT).
     */
    private Path fluxExamplesJar(Path module, Path work, Map<String, String> verdicts) throws IOException {
        String built = System.getProperty("microburst.flux.examples.jar", "");
        if (!built.isBlank()) {
            return Path.of(built).toAbsolutePath();
        }
        Map<String, String> notBuilt = new LinkedHashMap<>();
        Path classes = StormExamplesParityTest.compile(module.resolve("src").resolve("main").resolve("java"),
            work.resolve("classes"), List.of(fluxCore()), notBuilt);
        notBuilt.forEach((file, why) -> verdicts.put(file, "NOT BUILT: " + why));
        return LocalModes.jar(work.resolve("flux-examples.jar"), List.of(classes,
            module.resolve("src").resolve("main").resolve("resources"), fluxCore()), Map.of());
    }

    /** {@code flux/flux-examples} under {@code -Dmicroburst.storm.dist}, or on long runs the build's release; or null. */
    private static Path fluxExamplesModule() {
        List<Path> candidates = new ArrayList<>();
        String dist = System.getProperty("microburst.storm.dist", System.getenv("MICROBURST_STORM_DIST"));
        if (dist != null && !dist.isBlank()) {
            candidates.add(Path.of(dist));
        }
        candidates.add(Path.of("target", "apache-storm-" + STORM_VERSION));
        Path fetched = StormSourceRelease.findOnLongRuns("flux/flux-examples/src/main/java");
        if (fetched != null) {
            candidates.add(fetched);
        }
        for (Path candidate : candidates) {
            Path module = candidate.resolve("flux").resolve("flux-examples");
            if (Files.isDirectory(module.resolve("src").resolve("main").resolve("java"))) {
                return module.toAbsolutePath();
            }
        }
        return null;
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
