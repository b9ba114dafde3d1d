package io.microburst.runtime.topology;

import io.microburst.MicroburstConfig;
import io.microburst.NumberSpout;
import io.microburst.ReplayingSpout;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.executor.Executor;
import io.microburst.runtime.task.BoltTask;
import io.microburst.runtime.task.TaskRunner;
import io.microburst.runtime.task.TaskProbes;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.storm.Config;
import org.apache.storm.Constants;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bolt that never acks its tuples, or whose tuples another task acks, does not keep them: once their trees time out
 * or complete, they leave its list of held tuples, so memory stays bounded by max spout pending. Counted, not timed:
 * after three rounds of max spout pending trees have ended, the bolt holds at most two rounds.
 */
class HeldTuplesPruneTest {
    static final int MAX_PENDING = 200;
    static final Queue<Tuple> HANDED_OVER = new ConcurrentLinkedQueue<>();

    /** Never acks; with {@code handOver}, leaves each tuple for {@link OtherAcker} to ack. */
    public static class Holder extends BaseRichBolt {
        private final boolean handOver;

        Holder(boolean handOver) {
            this.handOver = handOver;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        }

        @Override
        public void execute(Tuple input) {
            if (handOver) {
                HANDED_OVER.add(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Acks its own tuples, and with its own collector every tuple the holder handed over, whenever a tick arrives. */
    public static class OtherAcker extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (Constants.SYSTEM_TICK_STREAM_ID.equals(input.getSourceStreamId())) {
                Tuple t;
                while ((t = HANDED_OVER.poll()) != null) {
                    collector.ack(t);
                }
            } else {
                collector.ack(input);
            }
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            Map<String, Object> conf = new HashMap<>();
            conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
            return conf;
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @ParameterizedTest(name = "acked by another task: {0}")
    @ValueSource(booleans = {false, true})
    void heldTuplesLeaveWhenTheirTreesEnd(boolean ackedByAnother) throws Exception {
        String run = "prune-" + ackedByAnother;
        NumberSpout.forget(run);
        HANDED_OVER.clear();
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, run);
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, MAX_PENDING);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new NumberSpout(run, Integer.MAX_VALUE, "n"));
        b.setBolt("holder", new Holder(ackedByAnother)).shuffleGrouping("spout");
        if (ackedByAnother) {
            b.setBolt("acker", new OtherAcker()).shuffleGrouping("spout");
        }
        TopologyPlan plan = TopologyPlan.build(run, run + "-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer(run + "-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, getClass().getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                BoltTask holder = null;
                for (Executor e : runtime.executors()) {
                    for (TaskRunner t : e.tasks()) {
                        if (t.componentId().equals("holder")) {
                            holder = (BoltTask) t;
                        }
                    }
                }
                BoltTask h = holder;
                ReplayingSpout.await("three rounds of trees to end", 60, () -> NumberSpout.ended(run) >= 3 * MAX_PENDING);
                // read from this thread: an estimate, which is all a bound needs
                ReplayingSpout.await("the holder to hold at most two rounds (holds " + TaskProbes.heldCount(h) + " after "
                    + NumberSpout.ended(run) + " trees ended)", 10, () -> TaskProbes.heldCount(h) <= 2 * MAX_PENDING);
            } finally {
                runtime.stopNow();
            }
        }
    }
}
