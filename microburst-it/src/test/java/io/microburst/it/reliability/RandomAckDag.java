package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.BoltDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * A random acking DAG drawn from a seed. Every shape has the same skeleton, so the result is predictable:
 *
 * <pre>
 * spout --&gt; fan (1..maxFan children, each anchored to the input) --&gt; relays (0..2, rich, basic or self-anchoring)
 *   |                                                                    |
 *   +----------------------------- fields(seq) ---------------------&gt; join (waits for 1 + fan inputs) --&gt; sink
 *   +--&gt; side fan (optional) --&gt; side sink
 * </pre>
 *
 * Parallelism, groupings, fan-out bound, relay kinds and the optional side branch come from the seed. Every bolt
 * acks; the main sink records each sequence number once per tree.
 */
final class RandomAckDag {
    final StormTopology topology;
    final String description;

    private RandomAckDag(StormTopology topology, String description) {
        this.topology = topology;
        this.description = description;
    }

    static RandomAckDag draw(long seed, String runId, long roots) {
        Random random = new Random(seed);
        TopologyBuilder builder = new TopologyBuilder();
        List<String> shape = new ArrayList<>();

        int spoutTasks = 1 + random.nextInt(2);
        builder.setSpout("spout", new SequenceSpout(runId, roots, false), spoutTasks);
        shape.add("spout x" + spoutTasks);

        int maxFan = 1 + random.nextInt(4);
        if (maxFan < 2) {
            maxFan = 4;
        }
        boolean fanAnchorsTwice = random.nextBoolean();
        int fanTasks = 1 + random.nextInt(3);
        subscribe(builder.setBolt("fan", new FanOutBolt(runId, maxFan, seed, fanAnchorsTwice), fanTasks), "spout", random);
        shape.add("fan(max " + maxFan + (fanAnchorsTwice ? ", anchors twice" : "") + ") x" + fanTasks);

        String upstream = "fan";
        int relays = random.nextInt(3);
        for (int i = 0; i < relays; i++) {
            String name = "relay" + i;
            int kindOfRelay = random.nextInt(3);
            int tasks = 1 + random.nextInt(2);
            BoltDeclarer relay = kindOfRelay == 0
                    ? builder.setBolt(name, new RelayBasicBolt(SequenceSpout.SEQ, FanOutBolt.FAN), tasks)
                    : builder.setBolt(name, new RelayBolt(runId, kindOfRelay == 2, SequenceSpout.SEQ, FanOutBolt.FAN), tasks);
            subscribe(relay, upstream, random);
            shape.add(name + (kindOfRelay == 0 ? "(basic)" : kindOfRelay == 2 ? "(self-anchoring)" : "(rich)") + " x" + tasks);
            upstream = name;
        }

        int joinTasks = 1 + random.nextInt(2);
        builder.setBolt("join", new SeqJoinBolt(runId), joinTasks)
                .fieldsGrouping("spout", new Fields(SequenceSpout.SEQ))
                .fieldsGrouping(upstream, new Fields(SequenceSpout.SEQ));
        shape.add("join x" + joinTasks);
        builder.setBolt("sink", new AckBolt(runId), 1 + random.nextInt(2)).shuffleGrouping("join");

        if (random.nextBoolean()) {
            builder.setBolt("sidefan", new FanOutBolt(runId, 4, ~seed, false), 1).shuffleGrouping("spout");
            builder.setBolt("sidesink", new CountingAckBolt(runId), 1).localOrShuffleGrouping("sidefan");
            shape.add("side branch");
        }
        return new RandomAckDag(builder.createTopology(), "seed " + seed + ": " + String.join(" -> ", shape));
    }

    private static void subscribe(BoltDeclarer bolt, String upstream, Random random) {
        switch (random.nextInt(3)) {
            case 0 -> bolt.shuffleGrouping(upstream);
            case 1 -> bolt.localOrShuffleGrouping(upstream);
            default -> bolt.fieldsGrouping(upstream, new Fields(SequenceSpout.SEQ));
        }
    }
}
