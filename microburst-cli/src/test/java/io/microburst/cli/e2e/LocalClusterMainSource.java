package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a user topology whose main runs it the way most Storm code does in local mode: {@code new LocalCluster()},
 * {@code submitTopology}, wait, close. Nothing in it names Microburst. Its spout emits four words once; its bolt prints
 * each word and appends it to the file named by the first argument; main waits (up to a minute, as a user's sleep
 * would) until the four words are there, then closes the cluster and prints that it did. With a second argument
 * {@code open} it returns right after submitting, leaving the cluster running.
 */
final class LocalClusterMainSource {
    static final String MAIN_CLASS = "example.localcluster.LocalClusterMain";

    private static final String SOURCE = """
            package example.localcluster;

            import java.io.IOException;
            import java.io.UncheckedIOException;
            import java.nio.charset.StandardCharsets;
            import java.nio.file.Files;
            import java.nio.file.Path;
            import java.nio.file.StandardOpenOption;
            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.LocalCluster;
            import org.apache.storm.spout.SpoutOutputCollector;
            import org.apache.storm.task.TopologyContext;
            import org.apache.storm.topology.BasicOutputCollector;
            import org.apache.storm.topology.OutputFieldsDeclarer;
            import org.apache.storm.topology.TopologyBuilder;
            import org.apache.storm.topology.base.BaseBasicBolt;
            import org.apache.storm.topology.base.BaseRichSpout;
            import org.apache.storm.tuple.Fields;
            import org.apache.storm.tuple.Tuple;
            import org.apache.storm.tuple.Values;

            public class LocalClusterMain {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new WordsSpout(), 1);
                    builder.setBolt("print", new PrintBolt(args[0]), 2).shuffleGrouping("words");
                    if (args.length > 1 && args[1].equals("open")) {
                        LocalCluster cluster = new LocalCluster();
                        cluster.submitTopology("local-cluster-words", new Config(), builder.createTopology());
                        System.out.println("main left its LocalCluster open");
                        return;
                    }
                    try (LocalCluster cluster = new LocalCluster()) {
                        cluster.submitTopology("local-cluster-words", new Config(), builder.createTopology());
                        Path record = Path.of(args[0]);
                        long deadline = System.currentTimeMillis() + 60_000;
                        while (lines(record) < 4 && System.currentTimeMillis() < deadline) {
                            Thread.sleep(10);
                        }
                    }
                    System.out.println("main closed its LocalCluster");
                }

                private static long lines(Path record) throws IOException {
                    return Files.exists(record) ? Files.readAllLines(record).size() : 0;
                }

                public static class WordsSpout extends BaseRichSpout {
                    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta"};
                    private SpoutOutputCollector collector;
                    private int next;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (next < WORDS.length) {
                            collector.emit(new Values(WORDS[next]), next++);
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class PrintBolt extends BaseBasicBolt {
                    private final String file;

                    public PrintBolt(String file) {
                        this.file = file;
                    }

                    @Override
                    public synchronized void execute(Tuple input, BasicOutputCollector collector) {
                        String word = input.getStringByField("word");
                        System.out.println("print bolt got " + word);
                        try {
                            Files.writeString(Path.of(file), word + "\\n", StandardCharsets.UTF_8,
                                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """;

    private LocalClusterMainSource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }
}
