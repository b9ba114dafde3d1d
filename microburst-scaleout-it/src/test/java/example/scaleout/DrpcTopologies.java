package example.scaleout;

import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.StormSubmitter;
import org.apache.storm.drpc.LinearDRPCTopologyBuilder;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFunction;
import org.apache.storm.trident.operation.TridentCollector;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * Two DRPC topologies written for a cluster (no LocalDRPC): {@code PREFIX-linear} serves "reverse" with
 * LinearDRPCTopologyBuilder, {@code PREFIX-trident} serves "words" with Trident's newDRPCStream. Arguments: PREFIX and,
 * when the cluster's configuration does not name them, the DRPC invocations port (the servers are then 127.0.0.1).
 */
public final class DrpcTopologies {
    private DrpcTopologies() {
    }

    public static void main(String[] args) throws Exception {
        Config conf = new Config();
        conf.setNumWorkers(1);
        if (args.length > 1) {
            conf.put(Config.DRPC_SERVERS, List.of("127.0.0.1"));
            conf.put(Config.DRPC_INVOCATIONS_PORT, Integer.parseInt(args[1]));
        }
        LinearDRPCTopologyBuilder linear = new LinearDRPCTopologyBuilder("reverse");
        linear.addBolt(new Reverse(), 2);
        StormSubmitter.submitTopology(args[0] + "-linear", conf, linear.createRemoteTopology());

        TridentTopology trident = new TridentTopology();
        trident.newDRPCStream("words")
            .each(new Fields("args"), new Split(), new Fields("word"))
            .project(new Fields("word"));
        StormSubmitter.submitTopology(args[0] + "-trident", conf, trident.build());
    }

    public static final class Reverse extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            collector.emit(new Values(tuple.getValue(0), new StringBuilder(tuple.getString(1)).reverse().toString()));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "result"));
        }
    }

    public static final class Split extends BaseFunction {
        @Override
        public void execute(TridentTuple tuple, TridentCollector collector) {
            for (String word : tuple.getString(0).split(" ")) {
                collector.emit(new Values(word));
            }
        }
    }
}
