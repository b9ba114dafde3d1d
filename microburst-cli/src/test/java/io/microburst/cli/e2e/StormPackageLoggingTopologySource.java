package io.microburst.cli.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import org.apache.storm.topology.TopologyBuilder;

/**
 * Source of a user topology whose classes live under {@code org.apache.storm}, as Storm's own examples do
 * (storm-starter's {@code org.apache.storm.starter}). Its bolt logs three INFO lines per word, in this order: one under
 * the name of a storm-client class the jar also bundles ({@link TopologyBuilder}, as a shaded jar does), one from a
 * class of its own in that same storm-client package, and one from the bolt itself.
 */
final class StormPackageLoggingTopologySource {
    static final String MAIN_CLASS = "org.apache.storm.something.LoggingTopology";
    static final String STORM_CLIENT_LINE = "a line under storm-client's TopologyBuilder";
    static final String HELPER_LINE = "the jar's own helper in a storm-client package saw alpha";
    static final String BOLT_LINE = "the example bolt saw alpha";

    private static final String TOPOLOGY = """
            package org.apache.storm.something;

            import java.util.Map;
            import org.apache.storm.Config;
            import org.apache.storm.StormSubmitter;
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
            import org.slf4j.Logger;
            import org.slf4j.LoggerFactory;

            public class LoggingTopology {
                public static void main(String[] args) throws Exception {
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("words", new OneWordSpout(), 1);
                    builder.setBolt("log", new LoggingBolt(), 1).shuffleGrouping("words");
                    StormSubmitter.submitTopology("logging", new Config(), builder.createTopology());
                }

                public static class OneWordSpout extends BaseRichSpout {
                    private SpoutOutputCollector collector;
                    private boolean sent;

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (!sent) {
                            sent = true;
                            collector.emit(new Values("alpha"));
                        }
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("word"));
                    }
                }

                public static class LoggingBolt extends BaseBasicBolt {
                    private static final Logger LOG = LoggerFactory.getLogger(LoggingBolt.class);

                    @Override
                    public void execute(Tuple input, BasicOutputCollector collector) {
                        LoggerFactory.getLogger(TopologyBuilder.class).info("%s");
                        org.apache.storm.topology.JarOwnHelper.log(input.getString(0));
                        LOG.info("the example bolt saw {}", input.getString(0));
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """.formatted(STORM_CLIENT_LINE);

    private static final String HELPER = """
            package org.apache.storm.topology;

            public final class JarOwnHelper {
                public static void log(String word) {
                    org.slf4j.LoggerFactory.getLogger(JarOwnHelper.class)
                            .info("the jar's own helper in a storm-client package saw {}", word);
                }
            }
            """;

    private StormPackageLoggingTopologySource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, TOPOLOGY, "org.apache.storm.topology.JarOwnHelper", HELPER);
    }

    /** storm-client's own TopologyBuilder class file, bundled into the jar as a shaded jar bundles it. */
    static Map<String, byte[]> shadedStormClientClass() throws IOException {
        String name = TopologyBuilder.class.getName().replace('.', '/') + ".class";
        try (InputStream in = TopologyBuilder.class.getClassLoader().getResourceAsStream(name)) {
            return Map.of(name, in.readAllBytes());
        }
    }
}
