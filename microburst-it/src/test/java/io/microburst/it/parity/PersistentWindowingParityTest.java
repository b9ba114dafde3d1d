package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Await;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.FixedTuplesSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseStatefulWindowedBolt;
import org.apache.storm.topology.base.BaseWindowedBolt.Count;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.windowing.TupleWindow;
import org.junit.jupiter.api.Test;

/**
 * storm-client's own persistent windowing (a stateful windowed bolt declared {@code withPersistence()}, which TopologyBuilder
 * runs in a PersistentWindowedBoltExecutor behind a checkpoint spout) runs end to end with the same windows on both runtimes.
 * Its prepare writes into the configuration map it is given, so that map must be mutable, and one task's writes must not reach
 * another's.
 */
class PersistentWindowingParityTest extends ParityTestSupport {
    private static final int TUPLES = 40;
    private static final int WINDOW = 5;
    private static final int MARKERS = 3;

    @Test
    void persistentTumblingWindowsSumTheSameOnBothRuntimes() throws Exception {
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_STATE_CHECKPOINT_INTERVAL, 100);
        Map<String, Run> runs = runOnBoth("persistent-window", PersistentWindowingParityTest::windowed, conf,
            events -> events.stream().filter(Received.class::isInstance).count() == TUPLES / WINDOW
                && events.stream().filter(ConfMark.class::isInstance).count() == MARKERS, Await.DEFAULT_LIMIT);
        for (Run run : runs.values()) {
            assertEquals(expectedSums(), sums(run), run.runtime() + ": one sum per tumbling window of " + WINDOW);
            // the bolt's write into its own configuration is visible to itself only
            for (Received r : run.receivedBy("sink")) {
                assertEquals(1L, ((Number) r.values().get(1)).longValue(), run.runtime() + ": keys written into conf " + r);
            }
            for (ConfMark m : run.all(ConfMark.class)) {
                assertEquals(1L, m.found(), run.runtime() + ": another task's write reached task " + m.taskId());
            }
        }
    }

    private static Map<Long, Long> expectedSums() {
        Map<Long, Long> sums = new TreeMap<>();
        for (long w = 0; w < TUPLES / WINDOW; w++) {
            long sum = 0;
            for (long n = w * WINDOW; n < (w + 1) * WINDOW; n++) {
                sum += n;
            }
            sums.put(w, sum);
        }
        return sums;
    }

    private static Map<Long, Long> sums(Run run) {
        Map<Long, Long> sums = new TreeMap<>();
        for (Received r : run.receivedBy("sink")) {
            long sum = ((Number) r.values().get(0)).longValue();
            sums.put(sum / (WINDOW * WINDOW), sum);
        }
        return sums;
    }

    private static StormTopology windowed(String scope) {
        List<List<Object>> tuples = new ArrayList<>();
        for (int n = 0; n < TUPLES; n++) {
            tuples.add(List.of(n));
        }
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", FixedTuplesSpout.of(scope, new Fields("n"), tuples), 1);
        builder.setBolt("window", new SummingWindowBolt().withTumblingWindow(Count.of(WINDOW)).withPersistence(), 1)
            .globalGrouping("spout");
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("window");
        builder.setBolt("marker", new MarkingBolt(scope), MARKERS).shuffleGrouping("spout");
        return builder.createTopology();
    }

    /** What one task found in its configuration map in prepare, after writing its own mark. */
    record ConfMark(int taskId, long found) {
    }

    /** Writes a mark into its configuration map in prepare and records how many marks it finds there. */
    static final class MarkingBolt extends BaseRichBolt {
        private final String scope;
        private transient OutputCollector collector;

        MarkingBolt(String scope) {
            this.scope = scope;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            topoConf.put("it.mark." + context.getThisTaskId(), true);
            long found = topoConf.keySet().stream().filter(k -> k.startsWith("it.mark.")).count();
            Recorder.record(scope, new ConfMark(context.getThisTaskId(), found));
        }

        @Override
        public void execute(Tuple input) {
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Sums each window; keeps a running window count in its persistent state; marks its configuration map as written. */
    static final class SummingWindowBolt extends BaseStatefulWindowedBolt<KeyValueState<String, Long>> {
        private static final String MARK = "it.window.prepared";
        private transient OutputCollector collector;
        private transient KeyValueState<String, Long> state;
        private transient Map<String, Object> conf;

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.conf = topoConf;
            long seen = topoConf.containsKey(MARK) ? 2 : 1;
            topoConf.put(MARK, seen);
        }

        @Override
        public void initState(KeyValueState<String, Long> state) {
            this.state = state;
        }

        @Override
        public void execute(TupleWindow window) {
            long sum = 0;
            for (Tuple t : window.get()) {
                sum += t.getInteger(0);
            }
            state.put("windows", state.get("windows", 0L) + 1);
            collector.emit(new Values(sum, conf.get(MARK)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("sum", "marks"));
        }
    }
}
