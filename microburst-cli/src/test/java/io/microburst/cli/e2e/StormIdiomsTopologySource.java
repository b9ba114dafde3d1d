package io.microburst.cli.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Source of a user topology jar in Storm's layout that uses what Storm's local mode offers a jar beyond spouts and
 * bolts, each writing a line to the record file named by the first argument left after {@code -conf FILE}:
 * <ul>
 * <li>DRPC: a {@code LinearDRPCTopologyBuilder} topology (its batch bolt is Java-deserialized by storm-client), asked
 *     through {@code DRPCClient.getConfiguredClient}, with no DRPC server configured ({@code drpc <result>});</li>
 * <li>a state provider class shipped in the jar ({@code topology.state.provider}), loaded by name by storm-client's
 *     {@code StateFactory} ({@code state provider}, {@code state initialized});</li>
 * <li>{@code ConfigurableTopology}: main starts it with {@code -conf FILE}, whose values reach the bolts
 *     ({@code conf <record.greeting>});</li>
 * <li>a Python multi-lang bolt using Storm's own {@code storm.py}, both in the jar's top-level {@code resources/}
 *     folder and named relative to it ({@code shell <WORD>}).</li>
 * </ul>
 * Other topologies built into the same jar use its spout and multi-lang bolt too.
 */
final class StormIdiomsTopologySource {
    static final String MAIN_CLASS = "example.idioms.IdiomsTopology";

    private static final String SOURCE = """
            package example.idioms;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
            import org.apache.storm.drpc.LinearDRPCTopologyBuilder;
            import org.apache.storm.spout.SpoutOutputCollector;
            import org.apache.storm.state.InMemoryKeyValueState;
            import org.apache.storm.state.KeyValueState;
            import org.apache.storm.state.State;
            import org.apache.storm.state.StateProvider;
            import org.apache.storm.task.OutputCollector;
            import org.apache.storm.task.ShellBolt;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.topology.BasicOutputCollector;
            import org.apache.storm.topology.ConfigurableTopology;
            import org.apache.storm.topology.IRichBolt;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseBasicBolt;
            import org.apache.storm.topology.base.BaseRichSpout;
            import org.apache.storm.topology.base.BaseStatefulBolt;
            import org.apache.storm.tuple.Fields;
            import org.apache.storm.tuple.Tuple;
            import org.apache.storm.tuple.Values;
            import org.apache.storm.utils.DRPCClient;

            public class IdiomsTopology extends ConfigurableTopology {
                public static void main(String[] args) throws Exception {
                    ConfigurableTopology.start(new IdiomsTopology(), args);
                }

                @Override
                protected int run(String[] args) throws Exception {
                    String record = args[0];
                    conf.put("record.file", record);

                    LinearDRPCTopologyBuilder drpc = new LinearDRPCTopologyBuilder("exclaim");
                    drpc.addBolt(new Exclaim(), 2);
                    StormSubmitter.submitTopology("drpc", conf, drpc.createRemoteTopology());

                    TopologyBuilder stateful = new TopologyBuilder();
                    stateful.setSpout("words", new WordsSpout("alpha", "beta"));
                    stateful.setBolt("count", new CountBolt()).shuffleGrouping("words");
                    Config stateConf = new Config();
                    stateConf.putAll(conf);
                    stateConf.put(Config.TOPOLOGY_STATE_PROVIDER, JarStateProvider.class.getName());
                    StormSubmitter.submitTopology("stateful", stateConf, stateful.createTopology());

                    TopologyBuilder shell = new TopologyBuilder();
                    shell.setSpout("words", new WordsSpout("alpha", "beta"));
                    shell.setBolt("upper", new UpperShellBolt()).shuffleGrouping("words");
                    shell.setBolt("record", new RecordBolt(record)).shuffleGrouping("upper");
                    if (submit("shell", conf, shell) != 0) {
                        throw new IllegalStateException("ConfigurableTopology.submit failed");
                    }

                    try (DRPCClient client = DRPCClient.getConfiguredClient(conf)) {
                        append(record, "drpc " + client.execute("exclaim", "hello"));
                    }
                    // The run's duration counts from here: wait until every topology has recorded what it does (or
                    // give up after a minute and let the test show what is missing), however loaded the machine.
                    long deadline = System.nanoTime() + 60_000_000_000L;
                    while (Files.readAllLines(Path.of(record)).stream().distinct().count() < 6
                            && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    return 0;
                }

                static void append(String file, String line) {
                    try {
                        Files.writeString(Path.of(file), line + "\\n", StandardCharsets.UTF_8,
                                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                public static class Exclaim extends BaseBasicBolt {
                    @Override
                    public void execute(Tuple tuple, BasicOutputCollector collector) {
                        collector.emit(new Values(tuple.getValue(0), tuple.getString(1) + "!"));
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("id", "result"));
                    }
                }

                public static class JarStateProvider implements StateProvider {
                    @Override
                    public State newState(String namespace, Map<String, Object> topoConf, TopologyContext context) {
                        append((String) topoConf.get("record.file"), "state provider");
                        return new InMemoryKeyValueState<String, Long>();
                    }
                }

                public static class CountBolt extends BaseStatefulBolt<KeyValueState<String, Long>> {
                    private String record;
                    private OutputCollector collector;
                    private boolean initialized;

                    @Override
                    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector c) {
                        record = (String) conf.get("record.file");
                        collector = c;
                        append(record, "conf " + conf.get("record.greeting"));
                    }

                    @Override
                    public void initState(KeyValueState<String, Long> state) {
                        if (!initialized) {
                            initialized = true;
                            append(record, "state initialized");
                        }
                    }

                    @Override
                    public void execute(Tuple input) {
                        collector.ack(input);
                    }
                }

                /** Emits its words once each, tracked. */
                public static class WordsSpout extends BaseRichSpout {
                    private final String[] words;
                    private SpoutOutputCollector collector;
                    private int next;

                    public WordsSpout(String... words) {
                        this.words = words;
                    }

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (next < words.length) {
                            collector.emit(new Values(words[next]), next);
                            next++;
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                /** Storm's multi-lang protocol: upper.py, in the jar's resources folder, upper-cases each word. */
                public static class UpperShellBolt extends ShellBolt implements IRichBolt {
                    public UpperShellBolt() {
                        super("python3", "upper.py");
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }

                    @Override
                    public Map<String, Object> getComponentConfiguration() {
                        return null;
                    }
                }

                public static class RecordBolt extends BaseBasicBolt {
                    private final String file;

                    public RecordBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public void execute(Tuple input, BasicOutputCollector collector) {
                        append(file, "shell " + input.getString(0));
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """;

    private static final String UPPER_PY = """
            import storm


            class Upper(storm.BasicBolt):
                def process(self, tup):
                    storm.emit([tup.values[0].upper()])


            Upper().run()
            """;

    private StormIdiomsTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }

    /** The jar's resources folder: the bolt's script and Storm's storm.py from the multilang-python artifact. */
    static Map<String, byte[]> resources() throws IOException {
        String dir = System.getProperty("microburst.test.multilang.dir");
        if (dir == null) {
            throw new IllegalStateException("microburst.test.multilang.dir is not set (the Maven build sets it)");
        }
        return Map.of("resources/upper.py", UPPER_PY.getBytes(StandardCharsets.UTF_8),
                "resources/storm.py", Files.readAllBytes(Path.of(dir, "storm.py")));
    }
}
