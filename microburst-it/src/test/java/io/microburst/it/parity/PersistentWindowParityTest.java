package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.Emission;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseStatefulWindowedBolt;
import org.apache.storm.topology.base.BaseWindowedBolt.Count;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.windowing.TupleWindow;
import org.junit.jupiter.api.Test;

/**
 * Windowing with persistence (storm-client's {@code PersistentWindowedBoltExecutor}, which writes into the
 * configuration map its {@code prepare} gets, with a checkpointed key-value state): the same window sums on both
 * runtimes.
 */
class PersistentWindowParityTest extends ParityTestSupport {
    private static final int TUPLES = 20;
    private static final int WINDOW = 5;

    /** Sums each tumbling window of "n" and emits the sum. */
    public static class WindowSum extends BaseStatefulWindowedBolt<KeyValueState<String, Long>> {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
        }

        @Override
        public void execute(TupleWindow window) {
            long sum = 0;
            for (Tuple t : window.get()) {
                sum += t.getIntegerByField("n");
            }
            collector.emit(new Values(sum));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("sum"));
        }
    }

    @Test
    void persistentTumblingWindowsGiveTheSameSumsOnBothRuntimes() throws Exception {
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
        Map<String, Run> runs = runFiniteOnBoth("persistent-window", PersistentWindowParityTest::topology, conf,
            TUPLES / WINDOW);
        List<Long> expected = new ArrayList<>();
        for (int w = 0; w < TUPLES / WINDOW; w++) {
            long sum = 0;
            for (int i = w * WINDOW; i < (w + 1) * WINDOW; i++) {
                sum += i;
            }
            expected.add(sum);
        }
        for (Run run : runs.values()) {
            List<Long> sums = new ArrayList<>();
            for (Received r : run.receivedBy("sink")) {
                sums.add(((Number) r.values().get(0)).longValue());
            }
            sums.sort(null);
            assertEquals(expected, sums, "window sums on " + run.runtime());
        }
    }

    private static StormTopology topology(String scope) {
        List<Emission> emissions = new ArrayList<>();
        for (int i = 0; i < TUPLES; i++) {
            emissions.add(Emission.of("default", i));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new FixedTuplesSpout(scope, Map.of("default", new Fields("n")), emissions, true));
        builder.setBolt("window", new WindowSum().withTumblingWindow(new Count(WINDOW)).withPersistence())
            .shuffleGrouping("numbers");
        builder.setBolt("sink", new CollectingBolt(scope)).shuffleGrouping("window");
        return builder.createTopology();
    }
}
