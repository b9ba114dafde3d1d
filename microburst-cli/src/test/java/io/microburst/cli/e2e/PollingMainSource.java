package io.microburst.cli.e2e;

import java.util.Map;

/**
 * Source of a user topology whose main waits for its topology the way many published benchmark applications do:
 * {@code new LocalCluster()}, {@code submitTopology}, then poll {@code cluster.getNimbus().getClusterInfo()} until no
 * topology is left, {@code cluster.shutdown()}. The topology ends itself: once every one of its tuples is acked, the
 * spout kills it through {@code NimbusClient} (as a user's spout that stops after a run time does). Compiled against
 * storm-server, {@code getNimbus()} is linked with the return type storm-server declares. Nothing in it names
 * Microburst.
 */
final class PollingMainSource {
    static final String MAIN_CLASS = "example.polling.PollingMain";

    private static final String SOURCE = """
            package example.polling;

            import java.util.Map;
            import java.util.concurrent.atomic.AtomicLong;
            import org.apache.storm.Config;
            import org.apache.storm.LocalCluster;
            import org.apache.storm.generated.KillOptions;
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
            import org.apache.storm.utils.NimbusClient;
            import org.apache.storm.utils.Utils;

            public class PollingMain {
                static final String NAME = "polling-numbers";
                static final AtomicLong COUNTED = new AtomicLong();

                public static void main(String[] args) throws Exception {
                    int limit = Integer.parseInt(args[0]);
                    TopologyBuilder builder = new TopologyBuilder();
                    builder.setSpout("numbers", new SelfEndingSpout(limit), 1);
                    builder.setBolt("count", new CountBolt(), 1).shuffleGrouping("numbers");
                    LocalCluster cluster = new LocalCluster();
                    cluster.submitTopology(NAME, new Config(), builder.createTopology());
                    while (cluster.getNimbus().getClusterInfo().get_topologies_size() > 0) {
                        Thread.sleep(20);
                    }
                    cluster.shutdown();
                    System.out.println("main saw no topology left; the bolt counted " + COUNTED.get());
                }

                public static class SelfEndingSpout extends BaseRichSpout {
                    private final int limit;
                    private SpoutOutputCollector collector;
                    private int emitted;
                    private int acked;
                    private boolean killed;

                    public SelfEndingSpout(int limit) {
                        this.limit = limit;
                    }

                    @Override
                    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector c) {
                        collector = c;
                    }

                    @Override
                    public void nextTuple() {
                        if (emitted < limit) {
                            collector.emit(new Values(emitted), emitted);
                            emitted++;
                        } else if (acked == limit && !killed) {
                            killed = true;
                            try {
                                KillOptions now = new KillOptions();
                                now.set_wait_secs(0);
                                NimbusClient.getConfiguredClient(Utils.readStormConfig()).getClient()
                                        .killTopologyWithOpts(NAME, now);
                            } catch (Exception e) {
                                throw new RuntimeException(e);
                            }
                        }
                    }

                    @Override
                    public void ack(Object id) {
                        acked++;
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                        declarer.declare(new Fields("n"));
                    }
                }

                public static class CountBolt extends BaseBasicBolt {
                    @Override
                    public void execute(Tuple input, BasicOutputCollector collector) {
                        COUNTED.incrementAndGet();
                    }

                    @Override
                    public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    }
                }
            }
            """;

    private PollingMainSource() {
    }

    static Map<String, String> sources() {
        return Map.of(MAIN_CLASS, SOURCE);
    }
}
