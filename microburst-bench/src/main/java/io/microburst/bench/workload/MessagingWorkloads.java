package io.microburst.bench.workload;

import io.microburst.bench.topology.ConstSpout;
import io.microburst.bench.topology.IdBolt;
import io.microburst.bench.topology.NullBolt;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;

/**
 * The messaging workloads: a constant spout alone, then into one or two trivial bolts, with acking off or on. They
 * measure what the runtime costs per tuple when the user code costs next to nothing.
 *
 * <p>Stateless; any thread.
 */
final class MessagingWorkloads {
    private MessagingWorkloads() {
    }

    static Workload spoutEmit() {
        return Workload.named("spout-emit")
            .description("ConstSpout alone: how fast the runtime can call nextTuple and take an emit")
            .unit("emits/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("spout", new ConstSpout(false, true), 1);
                return b.createTopology();
            })
            .ceiling(ConstCeiling::new, false)
            .build();
    }

    static Workload constNull(boolean acked, Integer maxPending) {
        String name = "const-null" + (acked ? "-ack" : "") + (maxPending != null ? "-mp" + maxPending : "");
        Workload.Builder w = Workload.named(name)
            .description("ConstSpout -> NullBolt over localOrShuffle, acking " + (acked ? "on (1 acker), max spout pending "
                + (maxPending == null ? "unset" : maxPending) : "off"))
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, acked ? 1 : 0)
            .latency(acked ? LatencyKind.COMPLETE : LatencyKind.NONE)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("spout", new ConstSpout(acked, false), 1);
                b.setBolt("null", new NullBolt(), 1).localOrShuffleGrouping("spout");
                return b.createTopology();
            });
        if (maxPending != null) {
            w.config(Config.TOPOLOGY_MAX_SPOUT_PENDING, maxPending);
        }
        if (!acked) {
            w.ceiling(ConstCeiling::new, true);
        }
        return w.build();
    }

    static Workload constIdNull(boolean acked) {
        Workload.Builder w = Workload.named("const-id-null" + (acked ? "-ack" : ""))
            .description("ConstSpout -> IdBolt -> NullBolt over localOrShuffle, acking " + (acked ? "on (1 acker)" : "off"))
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, acked ? 1 : 0)
            .latency(acked ? LatencyKind.COMPLETE : LatencyKind.NONE)
            .topology(() -> {
                TopologyBuilder b = new TopologyBuilder();
                b.setSpout("spout", new ConstSpout(acked, false), 1);
                b.setBolt("id", new IdBolt(), 1).localOrShuffleGrouping("spout");
                b.setBolt("null", new NullBolt(), 1).localOrShuffleGrouping("id");
                return b.createTopology();
            });
        if (!acked) {
            w.ceiling(ConstCeiling::new, true);
        }
        return w.build();
    }
}
