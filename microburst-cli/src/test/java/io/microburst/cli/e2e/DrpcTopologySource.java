package io.microburst.cli.e2e;

/**
 * The source of a topology jar with three DRPC topologies written as a Storm user writes them for a cluster (no
 * LocalDRPC anywhere: the spouts find the DRPC server through {@code drpc.servers}): {@code manual} (DRPCSpout, a bolt,
 * ReturnResults; the bolt throws for the argument "boom"), {@code linear} (LinearDRPCTopologyBuilder) and
 * {@code trident} (Trident's newDRPCStream). Main arguments: which, topology name, Nimbus port
 * [, manual's function name].
 */
final class DrpcTopologySource {
    static final String MAIN = "example.drpc.DrpcTopologies";

    private DrpcTopologySource() {
    }

    static final String SOURCE = """
        package example.drpc;

        import java.util.List;
        import org.apache.storm.Config;
        import org.apache.storm.StormSubmitter;
        import org.apache.storm.drpc.DRPCSpout;
        import org.apache.storm.drpc.LinearDRPCTopologyBuilder;
        import org.apache.storm.drpc.ReturnResults;
        import org.apache.storm.generated.StormTopology;
        import org.apache.storm.topology.BasicOutputCollector;
        import org.apache.storm.topology.OutputFieldsDeclarer;
        import org.apache.storm.topology.TopologyBuilder;
        import org.apache.storm.topology.base.BaseBasicBolt;
        import org.apache.storm.trident.TridentTopology;
        import org.apache.storm.trident.operation.BaseFunction;
        import org.apache.storm.trident.operation.TridentCollector;
        import org.apache.storm.trident.tuple.TridentTuple;
        import org.apache.storm.tuple.Fields;
        import org.apache.storm.tuple.Tuple;
        import org.apache.storm.tuple.Values;

        public class DrpcTopologies {
            public static void main(String[] args) throws Exception {
                StormTopology topology = switch (args[0]) {
                    case "manual" -> manual(args.length > 3 ? args[3] : "exclaim");
                    case "linear" -> linear();
                    case "trident" -> trident();
                    default -> throw new IllegalArgumentException(args[0]);
                };
                Config conf = new Config();
                conf.put(Config.NIMBUS_SEEDS, List.of("127.0.0.1"));
                conf.put(Config.NIMBUS_THRIFT_PORT, Integer.parseInt(args[2]));
                StormSubmitter.submitTopology(args[1], conf, topology);
            }

            static StormTopology manual(String function) {
                TopologyBuilder builder = new TopologyBuilder();
                builder.setSpout("drpc", new DRPCSpout(function));
                builder.setBolt("exclaim", new Exclaim(), 1).shuffleGrouping("drpc");
                builder.setBolt("return", new ReturnResults()).shuffleGrouping("exclaim");
                return builder.createTopology();
            }

            static StormTopology linear() {
                LinearDRPCTopologyBuilder builder = new LinearDRPCTopologyBuilder("reverse");
                builder.addBolt(new Reverse(), 2);
                return builder.createRemoteTopology();
            }

            static StormTopology trident() {
                TridentTopology topology = new TridentTopology();
                topology.newDRPCStream("words")
                    .each(new Fields("args"), new Split(), new Fields("word"))
                    .project(new Fields("word"));
                return topology.build();
            }

            public static class Exclaim extends BaseBasicBolt {
                @Override
                public void execute(Tuple tuple, BasicOutputCollector collector) {
                    String arg = tuple.getString(0);
                    if (arg.equals("boom")) {
                        throw new IllegalStateException("asked to fail: " + arg);
                    }
                    collector.emit(new Values(arg + "!", tuple.getValue(1)));
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    declarer.declare(new Fields("result", "return-info"));
                }
            }

            public static class Reverse extends BaseBasicBolt {
                @Override
                public void execute(Tuple tuple, BasicOutputCollector collector) {
                    collector.emit(new Values(tuple.getValue(0),
                        new StringBuilder(tuple.getString(1)).reverse().toString()));
                }

                @Override
                public void declareOutputFields(OutputFieldsDeclarer declarer) {
                    declarer.declare(new Fields("id", "result"));
                }
            }

            public static class Split extends BaseFunction {
                @Override
                public void execute(TridentTuple tuple, TridentCollector collector) {
                    for (String word : tuple.getString(0).split(" ")) {
                        collector.emit(new Values(word));
                    }
                }
            }
        }
        """;
}
