package org.example.release;

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
import org.slf4j.LoggerFactory;

/**
 * A user's topology, packed into its own jar by the install test and submitted with {@code bin/microburst submit} as
 * with {@code storm jar}: its main submits through {@code StormSubmitter}, which finds the server in the
 * installation's {@code conf/storm.yaml}. Outside {@code io.microburst} on purpose: the server loads its own packages
 * from its class path, a topology's from the jar. Threading: as Storm runs spouts and bolts, one executor thread each.
 */
public final class TickTopology {
    /** The line the spout logs once when it opens: the install test finds it in the topology's worker log. */
    public static final String OPENED = "tick spout opened";

    private TickTopology() {
    }

    /** Submits the topology under the name in {@code args[0]}. */
    public static void main(String[] args) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("ticks", new TickSpout(), 1);
        builder.setBolt("count", new CountBolt(), 1).setNumTasks(2).shuffleGrouping("ticks");
        Config conf = new Config();
        conf.setNumWorkers(1);
        StormSubmitter.submitTopology(args[0], conf, builder.createTopology());
    }

    /** Emits a counter every 5 ms; between ticks it emits nothing, so Storm's spout wait strategy lets it idle. */
    public static final class TickSpout extends BaseRichSpout {
        private static final long serialVersionUID = 1L;
        private static final long PERIOD_NANOS = 5_000_000L;
        private transient SpoutOutputCollector collector;
        private long next;
        private long count;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.next = System.nanoTime();
            LoggerFactory.getLogger(TickSpout.class).info(OPENED);
        }

        @Override
        public void nextTuple() {
            long now = System.nanoTime();
            if (now - next >= 0) {
                next = now + PERIOD_NANOS;
                collector.emit(new Values(count), count);
                count++;
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("tick"));
        }
    }

    /** Counts the ticks it is given. */
    public static final class CountBolt extends BaseBasicBolt {
        private static final long serialVersionUID = 1L;
        private long seen;

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            seen++;
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
