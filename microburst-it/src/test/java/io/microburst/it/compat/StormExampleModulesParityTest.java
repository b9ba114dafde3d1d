package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.it.durable.KafkaBroker;
import io.microburst.it.durable.RedisServer;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.activemq.ActiveMQConnectionFactory;
import org.apache.activemq.broker.BrokerService;
import org.apache.activemq.command.ActiveMQQueue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The other example modules of Apache Storm 2.8.3's {@code examples/} directory (storm-starter has
 * {@link StormExamplesParityTest}) on both local modes: storm-perf, storm-loadgen, storm-redis-examples,
 * storm-jdbc-examples, storm-kafka-client-examples, storm-jms-examples and storm-hdfs-examples. Each module found as
 * {@code examples/<module>/src/main/java} under the directory {@code -Dmicroburst.storm.dist} names (or
 * {@code target/apache-storm-2.8.3}, or with {@code -Dmicroburst.long=true} the source release the build unpacks) is
 * compiled against this test's class path (and the libraries its shaded jar
 * bundles, which go into its jar as Storm's build puts them);
 * each of its mains runs under {@code storm local} and under {@code microburst local}, with the outside systems a
 * user has on a laptop, started by the test on 127.0.0.1: redis-server, a Kafka broker (KRaft), an H2 database in a
 * file, an ActiveMQ Classic broker (embedded); the HDFS examples write through Hadoop's client to the local file
 * system. What is compared: exit codes, which of the example's own classes logged, what the topology left in the
 * outside system (Redis keys, database rows, Kafka offsets committed, JMS messages published and left on the queue,
 * files written and their records), for storm-perf the figures it polls from Nimbus, which
 * on Microburst must be sane (Storm's local mode often has none yet after 60 s), and for storm-loadgen the latency
 * report its own metrics server prints, which on Microburst must show tuples completed. Without the sources the test is
 * skipped. {@code -Dmicroburst.storm.examples=Name,Name} runs only those mains. Verdicts go to
 * {@code target/storm-examples/modules-report.txt}.
 */
class StormExampleModulesParityTest {
    private static final String VERSION = "2.8.3";
    private static final String ONLY = System.getProperty("microburst.storm.examples", "");
    /** storm-perf's mains poll Nimbus once a minute: a 60 s run gives one row of figures. */
    private static final String PERF_RUN_SECONDS = "60";
    /** How long topologies that run until killed are left running (Kafka's producers send one record a second). */
    private static final int SECONDS = Integer.getInteger("microburst.storm.examples.seconds", 30);
    private static final String KAFKA_GROUP = "kafkaSpoutTestGroup";
    private static final Pattern LOG_LINE = Pattern.compile("^(INFO|WARN|ERROR)\\s+(\\S+) - ");
    private static final List<String> MODULES = List.of("storm-perf", "storm-loadgen", "storm-redis-examples",
        "storm-jdbc-examples", "storm-kafka-client-examples", "storm-jms-examples", "storm-hdfs-examples");
    /** storm-jms-examples' jar as its build makes it, plus the jar its Spring file needs and the build leaves out. */
    private static final String JMS_WITH_AMQ_NAMESPACE = "storm-jms-examples+activemq-spring";
    /** The JMS messages the test puts on the example's queue before each run. */
    private static final int JMS_MESSAGES = 20;
    /** HdfsFileTopology rotates its files every minute: a run of 75 s sees one rotation on both. */
    private static final int HDFS_ROTATION_SECONDS = 75;
    /** A row of storm-loadgen's fixed-width report: start, end, rate, mean, 99%ile, 99.9%ile, ... */
    private static final Pattern LOADGEN_ROW = Pattern.compile("^\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,.]+)\\s+([\\d,.]+)\\s.*");

    /** One main of one module, and the arguments it runs with; {@code outside} names what it needs. */
    private record Example(String module, String mainClass, List<String> args, String outside, String jar) {
        Example(String module, String mainClass, List<String> args, String outside) {
            this(module, mainClass, args, outside, module);
        }

        String simpleName() {
            return mainClass.substring(mainClass.lastIndexOf('.') + 1);
        }

        /** The name of the run (the main, and the jar when it is not the module's own). */
        String runName() {
            return jar.equals(module) ? simpleName() : simpleName() + "-" + jar.substring(jar.indexOf('+') + 1);
        }

        String verdictKey() {
            return jar.equals(module) ? mainClass : mainClass + " (jar with " + jar.substring(jar.indexOf('+') + 1)
                + ")";
        }
    }

    @Test
    void everyExampleOfTheOtherModulesRunsOnMicroburstLocalAsOnStormLocal() throws Exception {
        Path examples = examples();
        assumeTrue(examples != null, "Storm " + VERSION + "'s example modules (storm-perf, storm-loadgen, "
            + "storm-redis-examples, storm-jdbc-examples, storm-kafka-client-examples, storm-jms-examples, "
            + "storm-hdfs-examples) take tens of minutes on both local modes: -Dmicroburst.long=true runs them from "
            + "Storm's source release, which the build unpacks, or pass -Dmicroburst.storm.dist=<a directory holding "
            + "examples/>");
        Path work = Files.createDirectories(Path.of("target", "storm-examples", "modules").toAbsolutePath());
        Map<String, String> verdicts = new LinkedHashMap<>();
        Map<String, Path> jars = new LinkedHashMap<>();
        Map<String, Set<String>> ownClasses = new LinkedHashMap<>();
        for (String module : MODULES) {
            Path sources = examples.resolve(module).resolve("src").resolve("main").resolve("java");
            if (!Files.isDirectory(sources)) {
                verdicts.put(module, "SKIPPED: no sources at " + sources);
                continue;
            }
            Map<String, String> notBuilt = new LinkedHashMap<>();
            List<Path> libraries = libraries(module);
            Path classes = StormExamplesParityTest.compile(sources, work.resolve(module).resolve("classes"), libraries,
                notBuilt);
            notBuilt.forEach((file, why) -> verdicts.put(module + "/" + file, "NOT BUILT: " + why));
            List<Path> contents = new ArrayList<>(List.of(classes));
            Path resources = examples.resolve(module).resolve("src").resolve("main").resolve("resources");
            if (Files.isDirectory(resources)) {
                contents.add(resources);
            }
            contents.addAll(libraries);
            // the JMS and HDFS examples need their libraries' META-INF files (Spring's, Hadoop's file systems)
            boolean needsMetaInf = module.equals("storm-jms-examples") || module.equals("storm-hdfs-examples");
            jars.put(module, LocalModes.jar(work.resolve(module + ".jar"), contents,
                needsMetaInf ? metaInf(libraries) : Map.of()));
            ownClasses.put(module, classNames(classes));
            if (module.equals("storm-jms-examples")) {
                List<Path> withNamespace = new ArrayList<>(libraries);
                withNamespace.addAll(libraries("storm-jms-examples-amq-namespace"));
                List<Path> all = new ArrayList<>(contents);
                all.addAll(withNamespace);
                jars.put(JMS_WITH_AMQ_NAMESPACE, LocalModes.jar(work.resolve(JMS_WITH_AMQ_NAMESPACE + ".jar"), all,
                    metaInf(withNamespace)));
                ownClasses.put(JMS_WITH_AMQ_NAMESPACE, classNames(classes));
            }
        }
        List<Example> selected = new ArrayList<>();
        for (Example e : examples(work)) {
            if (jars.containsKey(e.jar())
                && (ONLY.isBlank() || List.of(ONLY.split(",")).contains(e.simpleName()))) {
                selected.add(e);
            }
        }
        Path systems = Files.createDirectories(work.resolve("systems"));
        RedisServer redis = needs(selected, "redis") ? RedisServer.startOrSkip(Files.createDirectories(
            systems.resolve("redis"))) : null;
        KafkaBroker kafka = needs(selected, "kafka") ? KafkaBroker.start(Files.createDirectories(
            systems.resolve("kafka"))) : null;
        try {
            for (Example e : selected) {
                if (e.outside().startsWith("skip:")) {
                    verdicts.put(e.verdictKey(), "SKIPPED: " + e.outside().substring("skip:".length()));
                    continue;
                }
                Path dir = Files.createDirectories(work.resolve(e.runName()));
                if (e.module().equals("storm-perf")) {
                    // SimplifiedWordCountTopo and LowThroughputTopo read their run-time argument as the name of a
                    // configuration file as well: one of that name in the working directory lets them run
                    for (String mode : List.of(LocalModes.STORM, LocalModes.MICROBURST)) {
                        Path cwd = Files.createDirectories(dir.resolve(mode.replace(' ', '-')));
                        Files.writeString(cwd.resolve(PERF_RUN_SECONDS), "benchmark.label: " + e.simpleName() + "\n",
                            StandardCharsets.UTF_8);
                    }
                }
                Outside outside = outside(e, redis, kafka, dir);
                LocalModes.Output storm;
                LocalModes.Output microburst;
                String stormState;
                String microburstState;
                try {
                    List<String> stormArgs = outside.args(e.args(), "storm");
                    outside.reset();
                    storm = LocalModes.storm(dir, jars.get(e.jar()), seconds(e), e.mainClass(), stormArgs, conf(e));
                    stormState = outside.state("storm");
                    outside.reset();
                    microburst = LocalModes.microburst(dir, jars.get(e.jar()), seconds(e), e.mainClass(),
                        outside.args(e.args(), "microburst"), conf(e));
                    microburstState = outside.state("microburst");
                } finally {
                    outside.close();
                }
                verdicts.put(e.verdictKey(), verdict(e, storm, microburst, stormState, microburstState,
                    ownClasses.get(e.jar())));
            }
        } finally {
            if (kafka != null) {
                kafka.close();
            }
            if (redis != null) {
                redis.close();
            }
        }
        StringBuilder report = new StringBuilder();
        verdicts.forEach((example, verdict) -> report.append(example).append(": ").append(verdict).append('\n'));
        Files.writeString(work.resolve("modules-report.txt"), report, StandardCharsets.UTF_8);
        assertTrue(verdicts.values().stream().noneMatch(v -> v.startsWith("FAIL")), "examples that differ:\n" + report);
    }

    /** The mains of the modules, with arguments for a short local run (storm-perf: 60 s, its poll interval). */
    private static List<Example> examples(Path work) throws Exception {
        Path words = work.resolve("words.txt");
        StringBuilder text = new StringBuilder();
        String[] vocabulary = {"the", "cow", "jumped", "over", "moon", "an", "apple", "a", "day", "keeps", "doctor"};
        for (int line = 0; line < 500; line++) {
            for (int w = 0; w < 3 + line % 7; w++) {
                text.append(w == 0 ? "" : " ").append(vocabulary[(line * 7 + w * 3) % vocabulary.length]);
            }
            text.append('\n');
        }
        Files.writeString(words, text, StandardCharsets.UTF_8);
        Path perfConf = work.resolve("perf-conf.yaml");
        Files.writeString(perfConf, "input.file: " + words + "\n", StandardCharsets.UTF_8);
        String perf = "org.apache.storm.perf.";
        String loadgen = "org.apache.storm.loadgen.";
        String redis = "org.apache.storm.redis.";
        String jdbc = "org.apache.storm.jdbc.topology.";
        String kafka = "org.apache.storm.kafka.";
        String jms = "org.apache.storm.jms.example.";
        String hdfs = "org.apache.storm.hdfs.";
        return List.of(
            new Example("storm-perf", perf + "ConstSpoutNullBoltTopo", List.of(PERF_RUN_SECONDS), ""),
            new Example("storm-perf", perf + "ConstSpoutIdBoltNullBoltTopo", List.of(PERF_RUN_SECONDS), ""),
            new Example("storm-perf", perf + "ConstSpoutOnlyTopo", List.of(PERF_RUN_SECONDS), ""),
            new Example("storm-perf", perf + "FileReadWordCountTopo", List.of(PERF_RUN_SECONDS, perfConf.toString()),
                ""),
            // input file, run time, configuration file
            new Example("storm-perf", perf + "SimplifiedWordCountTopo",
                List.of(words.toString(), PERF_RUN_SECONDS, perfConf.toString()), ""),
            // bolt sleep ms, run time
            new Example("storm-perf", perf + "BackPressureTopo", List.of("10", PERF_RUN_SECONDS), ""),
            // spout sleep ms, run time
            new Example("storm-perf", perf + "LowThroughputTopo", List.of("100", PERF_RUN_SECONDS), ""),
            // 30 s, a report every 10 s; the main exits by itself
            new Example("storm-loadgen", loadgen + "ThroughputVsLatency", List.of("-t", "0.5", "-r", "10"), ""),
            // a load file as CaptureLoad writes them (storm-loadgen ships none); both local modes refuse the metrics
            // poll (getTopologyPageInfo), so the main fails on both
            new Example("storm-loadgen", loadgen + "GenLoad", List.of("-t", "0.25", "-r", "10", loadFile(work)), ""),
            // a fresh local cluster has no topology to capture: both write nothing and exit 0
            new Example("storm-loadgen", loadgen + "CaptureLoad", List.of("-o", work.resolve("captured").toString()),
                ""),
            new Example("storm-loadgen", loadgen + "EstimateThroughput", List.of(), ""),
            new Example("storm-redis-examples", redis + "topology.PersistentWordCount", List.of("test"), "redis"),
            new Example("storm-redis-examples", redis + "topology.WhitelistWordCount", List.of("test"), "redis"),
            new Example("storm-redis-examples", redis + "topology.LookupWordCount", List.of("test"), "redis"),
            new Example("storm-redis-examples", redis + "trident.WordCountTridentRedis", List.of(), "redis-trident"),
            new Example("storm-redis-examples", redis + "trident.WordCountTridentRedisMap", List.of(),
                "redis-trident"),
            new Example("storm-jdbc-examples", jdbc + "UserPersistenceTopology", List.of(), "jdbc"),
            new Example("storm-jdbc-examples", jdbc + "UserPersistenceTridentTopology", List.of(), "jdbc"),
            new Example("storm-kafka-client-examples", kafka + "spout.KafkaSpoutTopologyMainNamedTopics", List.of(),
                "kafka"),
            new Example("storm-kafka-client-examples", kafka + "spout.KafkaSpoutTopologyMainWildcardTopics",
                List.of(), "kafka"),
            new Example("storm-kafka-client-examples", kafka + "trident.TridentKafkaClientTopologyNamedTopics",
                List.of(), "kafka"),
            new Example("storm-kafka-client-examples", kafka + "trident.TridentKafkaClientTopologyWildcardTopics",
                List.of(), "kafka"),
            // as its build makes the jar, then with the jar its Spring file needs
            new Example("storm-jms-examples", jms + "ExampleJmsTopology", List.of(), "jms"),
            new Example("storm-jms-examples", jms + "ExampleJmsTopology", List.of(), "jms", JMS_WITH_AMQ_NAMESPACE),
            // file system URL and Hadoop configuration (YAML) are given by the test
            new Example("storm-hdfs-examples", hdfs + "bolt.HdfsFileTopology", List.of(), "hdfs"),
            new Example("storm-hdfs-examples", hdfs + "bolt.SequenceFileTopology", List.of(), "hdfs"),
            new Example("storm-hdfs-examples", hdfs + "trident.TridentFileTopology", List.of(), "hdfs"),
            new Example("storm-hdfs-examples", hdfs + "trident.TridentSequenceTopology", List.of(), "hdfs"),
            new Example("storm-hdfs-examples", hdfs + "spout.HdfsSpoutTopology", List.of(),
                "skip:its main polls the topology's metrics every 30 s for 20 minutes, then kills it"));
    }

    /** A GenLoad input: a spout at 200 tuple/s, a bolt splitting each tuple in two, a counter behind it. */
    private static String loadFile(Path work) throws Exception {
        Path file = work.resolve("load.yaml");
        String rate = "{mean: %d, stddev: 10, min: %d, max: %d}";
        String time = "{mean: 0.1, stddev: 0.01, min: 0.05, max: 0.2}";
        Files.writeString(file, String.join("\n",
            "name: loadtest",
            "config: {topology.workers: 1}",
            "spouts:",
            "  - {id: spout, parallelism: 1, streams: [{streamId: default, rate: " + rate.formatted(200, 150, 250) + "}]}",
            "bolts:",
            "  - {id: split, parallelism: 2, streams: [{streamId: default, rate: " + rate.formatted(400, 300, 500) + "}]}",
            "  - {id: count, parallelism: 1}",
            "streams:",
            "  - {from: spout, to: split, grouping: {type: SHUFFLE, streamId: default}, execTime: " + time
                + ", processTime: " + time + "}",
            "  - {from: split, to: count, grouping: {type: FIELDS, streamId: default}, execTime: " + time
                + ", processTime: " + time + "}",
            ""), StandardCharsets.UTF_8);
        return file.toString();
    }

    /** storm-perf's and storm-loadgen's mains end the run themselves: the local command then only has to end. */
    private static int seconds(Example e) {
        if (e.simpleName().equals("HdfsFileTopology")) {
            return HDFS_ROTATION_SECONDS;
        }
        return e.module().equals("storm-perf") || e.module().equals("storm-loadgen") ? 2 : SECONDS;
    }

    /**
     * The {@code -c} overrides a run gets. storm-loadgen's metrics consumer sends its data points with storm-client's
     * Kryo, which refuses the empty dimensions map of every {@code DataPoint} (not registered) on both runtimes, so
     * its report shows nothing; with Java serialization as the fallback (in the topology and in the main, where the
     * example's metrics server reads them) the figures arrive.
     */
    private static Map<String, String> conf(Example e) {
        return e.module().equals("storm-loadgen") ? Map.of("topology.fall.back.on.java.serialization", "true")
            : Map.of();
    }

    /**
     * The {@code META-INF} files of the libraries a jar bundling them needs (Spring's {@code spring.handlers} and
     * {@code spring.schemas}, and {@code META-INF/services/...}: Java's service files, Hadoop's file systems, XBean's
     * namespace mappings), each name's contents merged, as storm-hdfs-examples' shade plugin merges service files.
     */
    private static Map<String, byte[]> metaInf(List<Path> libraries) throws Exception {
        Map<String, StringBuilder> merged = new java.util.TreeMap<>();
        for (Path library : libraries) {
            try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(library.toFile())) {
                for (java.util.zip.ZipEntry entry : java.util.Collections.list(zip.entries())) {
                    String name = entry.getName();
                    if (!entry.isDirectory() && (name.equals("META-INF/spring.handlers")
                        || name.equals("META-INF/spring.schemas") || name.startsWith("META-INF/services/"))) {
                        try (java.io.InputStream in = zip.getInputStream(entry)) {
                            merged.computeIfAbsent(name, n -> new StringBuilder())
                                .append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
                        }
                    }
                }
            }
        }
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        merged.forEach((name, text) -> bytes.put(name, text.toString().getBytes(StandardCharsets.UTF_8)));
        return bytes;
    }

    /** The jars a module's shaded jar bundles besides its own classes (copied to target/example-libs by the build). */
    private static List<Path> libraries(String module) throws Exception {
        Path dir = Path.of("target", "example-libs", module).toAbsolutePath();
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    private static boolean needs(List<Example> examples, String system) {
        return examples.stream().anyMatch(e -> e.outside().startsWith(system));
    }

    /** What an example needs outside the topology: its arguments, a clean start, and what it left there. */
    private interface Outside {
        List<String> args(List<String> args, String mode) throws Exception;

        void reset() throws Exception;

        String state(String mode) throws Exception;

        /** Stops what the example's runs needed (a broker the test started for them). */
        default void close() throws Exception {
        }
    }

    private static Outside outside(Example e, RedisServer redis, KafkaBroker kafka, Path dir) {
        return switch (e.outside()) {
            case "redis", "redis-trident" -> new RedisState(redis.port(), e.outside().equals("redis-trident"));
            case "jdbc" -> new DatabaseRows(dir);
            case "kafka" -> new KafkaState(kafka.bootstrap());
            case "jms" -> new JmsState();
            case "hdfs" -> new HadoopFiles(dir, e.simpleName().equals("HdfsFileTopology"));
            default -> new Outside() {
                @Override
                public List<String> args(List<String> args, String mode) {
                    return args;
                }

                @Override
                public void reset() {
                }

                @Override
                public String state(String mode) {
                    return "";
                }
            };
        };
    }

    /**
     * The Redis examples: a clean database holding the whitelist and word counts they read; afterwards, every key
     * with its type and its hash fields or set members (the counts grow with time and are left out).
     */
    private record RedisState(int port, boolean trident) implements Outside {
        @Override
        public List<String> args(List<String> args, String mode) {
            List<String> all = new ArrayList<>(trident ? List.of("1") : List.of());
            all.addAll(List.of("127.0.0.1", Integer.toString(port)));
            all.addAll(args);
            return all;
        }

        @Override
        public void reset() {
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                jedis.flushAll();
                jedis.sadd("whitelist", "apple", "banana");
                jedis.hset("wordCount", Map.of("apple", "5", "banana", "7", "orange", "1"));
            }
        }

        @Override
        public String state(String mode) {
            StringBuilder state = new StringBuilder();
            try (Jedis jedis = new Jedis("127.0.0.1", port)) {
                for (String key : new TreeSet<>(jedis.keys("*"))) {
                    String type = jedis.type(key);
                    Set<String> members = switch (type) {
                        case "hash" -> new TreeSet<>(jedis.hkeys(key));
                        case "set" -> new TreeSet<>(jedis.smembers(key));
                        default -> Set.of();
                    };
                    state.append(key).append(' ').append(type).append(' ').append(members).append("; ");
                }
            }
            return state.toString();
        }
    }

    /** The JDBC examples: an H2 database in a file per run; afterwards, the distinct users and departments stored. */
    private record DatabaseRows(Path dir) implements Outside {
        String url(String mode) {
            // the examples name their table "user", which H2 reserves unless told otherwise
            return "jdbc:h2:file:" + dir.resolve(mode.replace(' ', '-')).resolve("db") + ";NON_KEYWORDS=USER";
        }

        @Override
        public List<String> args(List<String> args, String mode) {
            return List.of("org.h2.jdbcx.JdbcDataSource", url(mode), "sa", "", "test");
        }

        @Override
        public void reset() {
        }

        @Override
        public String state(String mode) throws Exception {
            Set<String> rows = new TreeSet<>();
            int count;
            try (Connection c = DriverManager.getConnection(url(mode), "sa", "");
                 Statement s = c.createStatement()) {
                try (ResultSet r = s.executeQuery("select count(*) from user")) {
                    r.next();
                    count = r.getInt(1);
                }
                try (ResultSet r = s.executeQuery("select distinct user_id, user_name, dept_name from user")) {
                    while (r.next()) {
                        rows.add(r.getInt(1) + "/" + r.getString(2) + "/" + r.getString(3));
                    }
                }
            }
            return count == 0 ? "no rows" : "rows " + rows;
        }
    }

    /**
     * The Kafka examples: no topic and no consumer group at the start; afterwards, the topics the spout examples'
     * group committed offsets on (the Trident examples print what they read instead).
     */
    private record KafkaState(String bootstrap) implements Outside {
        private Admin admin() {
            return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        }

        @Override
        public List<String> args(List<String> args, String mode) {
            return List.of(bootstrap);
        }

        @Override
        public void reset() throws Exception {
            try (Admin admin = admin()) {
                if (admin.listConsumerGroups().all().get(60, TimeUnit.SECONDS).stream()
                    .anyMatch(g -> g.groupId().equals(KAFKA_GROUP))) {
                    admin.deleteConsumerGroups(List.of(KAFKA_GROUP)).all().get(60, TimeUnit.SECONDS);
                }
                Set<String> topics = admin.listTopics().names().get(60, TimeUnit.SECONDS);
                if (!topics.isEmpty()) {
                    admin.deleteTopics(topics).all().get(60, TimeUnit.SECONDS);
                }
            }
        }

        @Override
        public String state(String mode) throws Exception {
            Set<String> committed = new TreeSet<>();
            try (Admin admin = admin()) {
                Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(KAFKA_GROUP)
                    .partitionsToOffsetAndMetadata().get(60, TimeUnit.SECONDS);
                offsets.forEach((partition, offset) -> {
                    if (offset != null && offset.offset() > 0) {
                        committed.add(partition.topic());
                    }
                });
            }
            return committed.isEmpty() ? "" : "offsets committed on " + committed;
        }
    }

    /**
     * storm-jms-examples: an ActiveMQ Classic broker on 127.0.0.1:61616 (where the example's Spring file looks), fresh
     * for each run, with {@value #JMS_MESSAGES} JSON messages waiting on the example's queue; afterwards, which of them
     * the example published on its topic (the test subscribes before the run) and how many its queue still holds.
     */
    private static final class JmsState implements Outside {
        private static final String BROKER_URL = "tcp://127.0.0.1:61616";
        private static final String QUEUE = "backtype.storm.contrib.example.queue";
        private static final String TOPIC = "backtype.storm.contrib.example.topic";
        /** The values of the tuple the example's JMS bolt publishes as its {@code toString()}. */
        private static final Pattern VALUES = Pattern.compile("\\[(\\{[^\\]]*\\})\\]");
        private final List<String> published = java.util.Collections.synchronizedList(new ArrayList<>());
        private BrokerService broker;
        private jakarta.jms.Connection connection;

        @Override
        public List<String> args(List<String> args, String mode) {
            return args;
        }

        @Override
        public void reset() throws Exception {
            close();
            published.clear();
            broker = new BrokerService();
            broker.setBrokerName("storm-jms-examples");
            broker.setPersistent(false);
            broker.setUseJmx(false);
            broker.setUseShutdownHook(false);
            broker.addConnector(BROKER_URL);
            broker.start();
            broker.waitUntilStarted();
            connection = new ActiveMQConnectionFactory(BROKER_URL).createConnection();
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createConsumer(session.createTopic(TOPIC)).setMessageListener(message -> {
                try {
                    published.add(((TextMessage) message).getText());
                } catch (JMSException | ClassCastException e) {
                    published.add("unreadable message: " + e);
                }
            });
            MessageProducer producer = session.createProducer(session.createQueue(QUEUE));
            for (int n = 0; n < JMS_MESSAGES; n++) {
                producer.send(session.createTextMessage("{\"n\": " + n + "}"));
            }
        }

        @Override
        public String state(String mode) throws Exception {
            Set<String> values = new TreeSet<>();
            List<String> other = new ArrayList<>();
            synchronized (published) {
                for (String text : published) {
                    Matcher m = VALUES.matcher(text);
                    if (m.find()) {
                        values.add(m.group(1));
                    } else {
                        other.add(text);
                    }
                }
            }
            long left = broker.getDestination(new ActiveMQQueue(QUEUE)).getDestinationStatistics().getMessages()
                .getCount();
            return "topic got " + values.size() + " of the " + JMS_MESSAGES + " messages"
                + (other.isEmpty() ? "" : " and " + other) + ", queue holds " + left;
        }

        @Override
        public void close() throws Exception {
            if (connection != null) {
                connection.close();
                connection = null;
            }
            if (broker != null) {
                broker.stop();
                broker.waitUntilStopped();
                broker = null;
            }
        }
    }

    /**
     * storm-hdfs-examples against Hadoop's local file system, through a view file system ({@code viewfs://examples/})
     * whose {@code /tmp} is a directory of the run's own (the examples write to {@code /tmp/...} paths fixed in their
     * code; the URL and the mount go in as the examples' file system URL and Hadoop configuration file). Afterwards:
     * the names of the files written (numbers left out) and their records: a text file's distinct lines (timestamps
     * left out, a last line not yet complete ignored; Trident's index file: its numbers left out), a sequence file's
     * key and value classes and codec. Files nothing
     * reached yet (empty) are left out. The directories are compared only where the rotation goes by time
     * (HdfsFileTopology: every minute); size rotation (5 MB) depends on how fast each runtime writes.
     */
    private record HadoopFiles(Path dir, boolean compareDirectories) implements Outside {
        private Path root(String mode) {
            return dir.resolve("hdfs-" + mode);
        }

        @Override
        public List<String> args(List<String> args, String mode) throws Exception {
            Path root = root(mode);
            delete(root);
            Path tmp = Files.createDirectories(root.resolve("tmp"));
            Path conf = root.resolve("hdfs.yaml");
            Files.writeString(conf, "'fs.viewfs.mounttable.examples.link./tmp': '" + tmp.toUri() + "'\n",
                StandardCharsets.UTF_8);
            return List.of("viewfs://examples/", conf.toString());
        }

        @Override
        public void reset() {
        }

        @Override
        public String state(String mode) throws Exception {
            Path tmp = root(mode).resolve("tmp");
            Set<String> names = new TreeSet<>();
            Set<String> directories = new TreeSet<>();
            Set<String> records = new TreeSet<>();
            List<Path> files;
            try (Stream<Path> walk = Files.walk(tmp)) {
                files = walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().endsWith(".crc"))
                    .sorted().toList();
            }
            for (Path file : files) {
                byte[] content = Files.readAllBytes(file);
                if (content.length == 0) {
                    continue;
                }
                String name = file.getFileName().toString();
                names.add(name.replaceAll("\\d+", "N"));
                directories.add(tmp.relativize(file.getParent()).toString());
                if (name.endsWith(".seq")) {
                    records.add(sequenceFileHeader(content));
                } else {
                    String text = new String(content, StandardCharsets.UTF_8);
                    List<String> lines = new ArrayList<>(text.lines().toList());
                    if (!text.endsWith("\n")) {
                        lines.remove(lines.size() - 1);
                    }
                    // Trident's HdfsState keeps "txid,file,offset" in an index file: numbers that grow with time
                    String numbers = name.startsWith(".index") ? "\\d+" : "\\d{10,}";
                    lines.forEach(line -> records.add(line.replaceAll(numbers, "T")));
                }
            }
            delete(root(mode).resolve("tmp"));
            if (names.isEmpty()) {
                return "no file";
            }
            return "files " + names + (compareDirectories ? " in " + directories : "") + ", records " + records;
        }

        /** Deletes a directory tree (the examples write hundreds of megabytes a minute on a fast runtime). */
        private static void delete(Path tree) throws Exception {
            if (Files.exists(tree)) {
                try (Stream<Path> walk = Files.walk(tree)) {
                    for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }

        /** A sequence file's header: "SEQ", a version byte, key and value class names, compression flags, codec. */
        private static String sequenceFileHeader(byte[] content) {
            if (content.length < 4 || content[0] != 'S' || content[1] != 'E' || content[2] != 'Q') {
                return "not a sequence file";
            }
            int[] at = {4};
            String key = text(content, at);
            String value = text(content, at);
            boolean compressed = content[at[0]++] != 0;
            boolean blocks = content[at[0]++] != 0;
            String codec = compressed ? text(content, at) : "none";
            return "sequence file " + key + " -> " + value + ", " + (blocks ? "block" : compressed ? "record" : "no")
                + " compression, " + codec;
        }

        /** Hadoop's Text as written: a one-byte length (names under 128 bytes) and UTF-8 bytes. */
        private static String text(byte[] content, int[] at) {
            int length = content[at[0]++];
            String s = new String(content, at[0], length, StandardCharsets.UTF_8);
            at[0] += length;
            return s;
        }
    }

    /** PASS, or FAIL with the differences; storm-perf's verdicts also show both rows of figures. */
    private static String verdict(Example e, LocalModes.Output storm, LocalModes.Output microburst, String stormState,
                                  String microburstState, Set<String> ownClasses) {
        if (storm.exitCode() != 0 && microburst.exitCode() == 0) {
            return "STORM FAILED (exit code " + storm.exitCode() + ")";
        }
        List<String> causes = new ArrayList<>();
        if (storm.exitCode() != microburst.exitCode()) {
            causes.add("exit code " + microburst.exitCode() + " where Storm's is " + storm.exitCode());
        }
        Set<String> missing = loggers(storm, ownClasses);
        missing.removeAll(loggers(microburst, ownClasses));
        if (!missing.isEmpty()) {
            causes.add("no log lines from " + missing);
        }
        if (!stormState.equals(microburstState)) {
            causes.add("left '" + microburstState + "' where Storm left '" + stormState + "'");
        }
        if (e.outside().equals("kafka") && e.mainClass().contains(".trident.")) {
            boolean stormRead = storm.text().contains("DEBUG: [");
            boolean microburstRead = microburst.text().contains("DEBUG: [");
            if (stormRead != microburstRead) {
                causes.add(microburstRead ? "printed records Storm did not" : "printed no record where Storm did");
            }
        }
        String running = microburst.text();
        int stopping = running.indexOf("microburst: killing topology");
        Matcher failure = StormExamplesParityTest.MICROBURST_FAILURE.matcher(
            stopping < 0 ? running : running.substring(0, stopping));
        if (failure.find()) {
            causes.add("task failure near: " + failure.group());
        }
        String figures = "";
        if (e.simpleName().equals("ThroughputVsLatency")) {
            List<String> stormRows = loadgenRows(storm);
            List<String> microburstRows = loadgenRows(microburst);
            figures = " (Storm's report: " + stormRows + "; Microburst's: " + microburstRows + ")";
            if (microburstRows.stream().noneMatch(StormExampleModulesParityTest::completedTuples)) {
                causes.add("its report shows no tuple completed");
            }
        }
        if (e.module().equals("storm-perf")) {
            String stormRow = figures(storm);
            String microburstRow = figures(microburst);
            figures = " (Storm's figures: " + stormRow + "; Microburst's: " + microburstRow + ")";
            String insane = insane(e, microburstRow);
            if (insane != null) {
                causes.add(insane);
            }
        }
        String left = (storm.exitCode() == 0 ? "" : " (both exit " + storm.exitCode() + ")")
            + (stormState.isEmpty() ? "" : " (left " + stormState + ")");
        return (causes.isEmpty() ? "PASS" + left : "FAIL: " + String.join("; ", causes)) + figures;
    }

    /** The loggers of the example's own classes that logged. */
    private static Set<String> loggers(LocalModes.Output out, Set<String> ownClasses) {
        Set<String> loggers = new TreeSet<>();
        for (String line : out.lines()) {
            Matcher m = LOG_LINE.matcher(line);
            if (m.find() && ownClasses.contains(m.group(2))) {
                loggers.add(m.group(1) + " " + m.group(2));
            }
        }
        return loggers;
    }

    /** storm-loadgen's report rows: start and end (s), rate (tuple/s), mean and 99th percentile latency (ms). */
    private static List<String> loadgenRows(LocalModes.Output out) {
        List<String> rows = new ArrayList<>();
        for (String line : out.lines()) {
            Matcher m = LOADGEN_ROW.matcher(line);
            if (m.matches()) {
                rows.add(String.join(" ", m.group(1), m.group(2), m.group(3), m.group(4)));
            }
        }
        return rows;
    }

    private static boolean completedTuples(String row) {
        return Double.parseDouble(row.split(" ")[2].replace(",", "")) > 0;
    }

    /** The row of figures storm-perf printed under its header (elapsed, workers, tasks, ...), or "none". */
    private static String figures(LocalModes.Output out) {
        List<String> lines = out.lines();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("elapsed (sec),")) {
                for (int j = i + 1; j < lines.size(); j++) {
                    if (lines.get(j).matches("^-?\\d+,.*")) {
                        return lines.get(j);
                    }
                }
            }
        }
        return "none";
    }

    /**
     * Why Microburst's figures are not sane, or null. Columns: elapsed, workers, tasks, executors, transferred,
     * transfer rate, spout executors, spout transferred, spout acks, spout throughput, average and max complete
     * latency (ms).
     */
    private static String insane(Example e, String row) {
        if (row.equals("none")) {
            return "printed no figures";
        }
        String[] f = row.split(",");
        if (f.length < 12 || row.contains("NaN") || row.contains("-")) {
            return "figures not sane: " + row;
        }
        long transferred = Long.parseLong(f[4]);
        long acks = Long.parseLong(f[8]);
        boolean spoutOnly = e.simpleName().equals("ConstSpoutOnlyTopo");
        if (spoutOnly ? transferred != 0 || acks == 0 : transferred == 0) {
            return "figures not sane (transferred " + transferred + ", acks " + acks + "): " + row;
        }
        return null;
    }

    /** The class names a module compiled to (nested ones as their loggers name them, with '$'). */
    private static Set<String> classNames(Path classes) throws Exception {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(classes)) {
            walk.filter(p -> p.toString().endsWith(".class")).forEach(p -> names.add(classes.relativize(p).toString()
                .replace(File.separatorChar, '.').replaceAll("\\.class$", "")));
        }
        return names;
    }

    /** The examples directory of the unpacked distribution (or source checkout), or null. */
    private static Path examples() {
        List<Path> candidates = new ArrayList<>();
        String dist = System.getProperty("microburst.storm.dist", System.getenv("MICROBURST_STORM_DIST"));
        if (dist != null && !dist.isBlank()) {
            candidates.add(Path.of(dist));
        }
        candidates.add(Path.of("target", "apache-storm-" + VERSION));
        Path fetched = StormSourceRelease.findOnLongRuns("examples");
        if (fetched != null) {
            candidates.add(fetched);
        }
        for (Path candidate : candidates) {
            Path examples = candidate.resolve("examples");
            for (String module : MODULES) {
                if (Files.isDirectory(examples.resolve(module).resolve("src").resolve("main").resolve("java"))) {
                    return examples;
                }
            }
        }
        return null;
    }
}
