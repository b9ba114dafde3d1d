package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.TupleUtils;
import org.junit.jupiter.api.Test;

/** Tick tuples at topology.tick.tuple.freq.secs, set for the whole topology or for one component. */
class TicksTest extends ClusterTestSupport {

    @Test
    void topologyLevelTicksReachEveryBoltTaskAtTheirFrequency() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 50), 1);
        builder.setBolt("a", new TickRecordingBolt(scope), 2).shuffleGrouping("spout");
        builder.setBolt("b", new TickRecordingBolt(scope), 1).shuffleGrouping("spout");
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        submit("ticks", conf, builder.createTopology());

        Await.until("3 ticks at each of the 3 bolt tasks", () -> ticksByTask().size() == 3
            && ticksByTask().values().stream().allMatch(ticks -> ticks.size() >= 3), Await.DEFAULT_LIMIT, () -> ticksByTask().toString());
        for (List<TickSeen> ticks : ticksByTask().values()) {
            assertTicksOneSecondApart(ticks);
            for (TickSeen tick : ticks) {
                assertEquals("__system", tick.sourceComponent());
                assertEquals("__tick", tick.stream());
            }
        }
        assertTrue(recorded(TickSeen.class).stream().noneMatch(t -> t.component().equals("spout")));
    }

    @Test
    void componentLevelTicksReachOnlyThatComponent() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 50), 1);
        builder.setBolt("ticking", new TickRecordingBolt(scope), 1).shuffleGrouping("spout")
            .addConfiguration(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        builder.setBolt("quiet", new TickRecordingBolt(scope), 1).shuffleGrouping("spout");
        submit("componentticks", Topologies.baseConf(), builder.createTopology());

        Await.until("3 ticks at the ticking bolt", () -> ticksOf("ticking").size() >= 3);
        assertTicksOneSecondApart(ticksOf("ticking"));
        assertTrue(ticksOf("quiet").isEmpty(), "a bolt without tick configuration got ticks: " + ticksOf("quiet"));
        assertTrue(recorded(Received.class).stream().anyMatch(r -> r.component().equals("quiet")),
            "the quiet bolt runs and receives tuples");
    }

    @Test
    void noTicksWithoutConfiguration() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 50), 1);
        builder.setBolt("quiet", new TickRecordingBolt(scope), 1).shuffleGrouping("spout");
        submit("noticks", Topologies.baseConf(), builder.createTopology());
        Await.until("tuples flowing", () -> Recorder.count(scope, Received.class) >= 3);
        Await.never("a tick", () -> !recorded(TickSeen.class).isEmpty(), Duration.ofMillis(2500));
    }

    /** Ticks at 1 s: between consecutive ticks at least 0.5 s, and over the whole run no more than one tick per second plus slack. */
    private static void assertTicksOneSecondApart(List<TickSeen> ticks) {
        for (int i = 1; i < ticks.size(); i++) {
            long gapMillis = (ticks.get(i).nanos() - ticks.get(i - 1).nanos()) / 1_000_000;
            assertTrue(gapMillis >= 500, "ticks at 1 s came " + gapMillis + " ms apart");
        }
    }

    private Map<Integer, List<TickSeen>> ticksByTask() {
        return recorded(TickSeen.class).stream().collect(Collectors.groupingBy(TickSeen::taskId));
    }

    private List<TickSeen> ticksOf(String component) {
        return recorded(TickSeen.class).stream().filter(t -> t.component().equals(component)).collect(Collectors.toList());
    }

    /** A tuple TupleUtils.isTick recognised, when it arrived, and what it claimed to come from. */
    record TickSeen(String component, int taskId, long nanos, String sourceComponent, String stream) {
    }

    /** Records ticks as TickSeen (and not as Received); ordinary tuples as Received. */
    static final class TickRecordingBolt extends CollectingBolt {
        private transient TopologyContext context;
        private transient OutputCollector collector;

        TickRecordingBolt(String scope) {
            super(scope);
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.context = context;
            this.collector = collector;
            super.prepare(topoConf, context, collector);
        }

        @Override
        public void execute(Tuple input) {
            if (TupleUtils.isTick(input)) {
                Recorder.record(scope(), new TickSeen(context.getThisComponentId(), context.getThisTaskId(), System.nanoTime(),
                    input.getSourceComponent(), input.getSourceStreamId()));
                collector.ack(input);
            } else {
                super.execute(input);
            }
        }
    }
}
