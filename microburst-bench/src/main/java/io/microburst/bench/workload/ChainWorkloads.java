package io.microburst.bench.workload;

import io.microburst.bench.topology.RateSpout;
import io.microburst.bench.topology.StageBolt;
import io.microburst.bench.topology.StageSinkBolt;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.TopologyBuilder;

/**
 * The multi-hop chain held at a steady moderate rate: a source, {@link #STAGES} basic bolts joined alternately by shuffle
 * and fields groupings, and a sink that records end-to-end latency (9 components, parallelism 1, acking off), the shape
 * of a Linear Road pipeline; stages 3 and 6 also take the source's control stream, so their input crosses threads in
 * Microburst too (a bolt with two inputs is not fused) and the chain runs as three fused segments. {@code chain-full} runs the source as fast as it goes (the capacity); the others hold it at
 * the rates of {@link #RATES}, which stand for 10%, 30% and 60% of Storm's capacity on the 2-core benchmark machine (370k/s; the
 * lower of the two runtimes', so that both keep up; see docs/performance/2026-11-27-moderate-load-latency.md).
 *
 * <p>Stateless; any thread.
 */
final class ChainWorkloads {
    /** Bolts between the source and the sink. */
    static final int STAGES = 7;
    /** Every this many stages one also subscribes to the source's control stream (a second input: no fusion there). */
    static final int CONTROLLED_EVERY = 3;
    /** The held rates, tuples a second: 10%, 30% and 60% of Storm's capacity for this chain here. */
    static final List<Integer> RATES = List.of(37_000, 110_000, 220_000);
    /** Percent of capacity each of {@link #RATES} stands for. */
    static final List<Integer> PERCENTS = List.of(10, 30, 60);

    private ChainWorkloads() {
    }

    /** The chain at full speed: its capacity. */
    static Workload full() {
        return Workload.named("chain-full")
            .family("chain", 1)
            .description("A source, " + STAGES + " basic bolts (a running sum per key, new Values per emit) joined alternately "
                + "by shuffle and fields groupings, and a sink; the source as fast as it goes: the chain's capacity")
            .latency(LatencyKind.NONE)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> topology(0))
            .build();
    }

    /** The chain with its source held at {@code perSecond}, standing for {@code percent}% of capacity. */
    static Workload held(int perSecond, int percent) {
        return Workload.named("chain-" + percent + "pct")
            .family("chain-held", 1)
            .description("The chain of chain-full with its source held at " + perSecond + " tuples/s (about " + percent
                + "% of Storm's capacity for it), each stamped with System.nanoTime() at its emit; the sink records now "
                + "minus the stamp")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> topology(perSecond))
            .build();
    }

    private static org.apache.storm.generated.StormTopology topology(int perSecond) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("source", new RateSpout(perSecond), 1);
        String previous = "source";
        for (int stage = 1; stage <= STAGES; stage++) {
            String name = "stage" + stage;
            BoltDeclarer bolt = b.setBolt(name, new StageBolt(stage), 1);
            group(bolt, previous, stage % 2 == 0);
            if (stage % CONTROLLED_EVERY == 0) {
                bolt.allGrouping("source", RateSpout.CONTROL);
            }
            previous = name;
        }
        b.setBolt("sink", new StageSinkBolt(), 1).shuffleGrouping(previous);
        return b.createTopology();
    }

    private static void group(BoltDeclarer bolt, String from, boolean byKey) {
        if (byKey) {
            bolt.fieldsGrouping(from, new org.apache.storm.tuple.Fields("key"));
        } else {
            bolt.shuffleGrouping(from);
        }
    }
}
