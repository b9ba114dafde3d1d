package io.microburst.bench.workload;

import io.microburst.bench.topology.LatencyBolt;
import io.microburst.bench.topology.SleepAfterEmitBolt;
import io.microburst.bench.topology.SleepAfterEmitSpout;
import io.microburst.bench.topology.StampSpout;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;

/**
 * The latency workloads: low-load end-to-end latency, and the shapes where a spout or a bolt sleeps in its call after
 * an emit (what a runtime that batches emits must still deliver promptly).
 *
 * <p>Stateless; any thread.
 */
final class LatencyWorkloads {
    /** How long the slow-call workloads sleep in a call after their emit. */
    static final long SLOW_CALL_MILLIS = 10;

    private LatencyWorkloads() {
    }

    static Workload latency(int tuplesPerMs) {
        return Workload.named("latency-" + tuplesPerMs + "-per-ms")
            .description("Low-load latency: " + tuplesPerMs + " tuple(s) every millisecond, stamped by the spout with "
                + "System.nanoTime(), recorded by the bolt; acking off")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("stamps", new StampSpout(tuplesPerMs), 1);
                b.setBolt("latency", new LatencyBolt(), 1).shuffleGrouping("stamps");
                return b.createTopology();
            })
            .ceiling(() -> new LatencyCeiling(tuplesPerMs), true)
            .build();
    }

    static Workload spoutSleepsAfterEmit() {
        return Workload.named("spout-sleeps-after-emit")
            .description("storm-perf LowThroughputTopo's shape: each nextTuple emits a tuple stamped with System.nanoTime() "
                + "(message id, acking on) and then sleeps " + SLOW_CALL_MILLIS + " ms inside the call; the bolt records now "
                + "minus the stamp")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 1)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("sleepy", new SleepAfterEmitSpout(SLOW_CALL_MILLIS), 1);
                b.setBolt("latency", new LatencyBolt(), 1).localOrShuffleGrouping("sleepy");
                return b.createTopology();
            })
            .build();
    }

    static Workload boltSleepsAfterEmit() {
        return Workload.named("bolt-sleeps-after-emit")
            .description("A bolt's slow call after its emit: a spout emits a tuple every " + SLOW_CALL_MILLIS + " ms (sleeping "
                + "in nextTuple); the middle bolt emits a tuple stamped with System.nanoTime() and then sleeps "
                + SLOW_CALL_MILLIS / 2 + " ms inside execute; the last bolt records now minus the stamp; acking on")
            .latency(LatencyKind.END_TO_END)
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 1)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("sleepy", new SleepAfterEmitSpout(SLOW_CALL_MILLIS), 1);
                b.setBolt("slow", new SleepAfterEmitBolt(SLOW_CALL_MILLIS / 2), 1).shuffleGrouping("sleepy");
                b.setBolt("latency", new LatencyBolt(), 1).shuffleGrouping("slow");
                return b.createTopology();
            })
            .build();
    }
}
