package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bolt instance that dies fails the tuples it still holds, and only those: a tuple it acked within execute is done
 * with, even when the tree it belongs to is still waiting for a child tuple downstream.
 */
class HeldTuplesTest {
    static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

    /** Tuple 0: emits a child anchored to it and acks it within execute. Tuple 1: throws. */
    public static class AckThenThrow extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (input.getInteger(0) == 1) {
                throw new IllegalStateException("the instance dies on tuple 1 (expected by the test)");
            }
            collector.emit(input, new Values(input.getInteger(0)));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Acks each tuple from a thread of its own once the run's gate opens. */
    public static class Gate extends BaseRichBolt {
        private final String run;
        private transient OutputCollector collector;

        Gate(String run) {
            this.run = run;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            Thread t = new Thread(() -> {
                try {
                    GATES.get(run).await();
                    collector.ack(input);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "gate-" + run);
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }

    @ParameterizedTest(name = "fusion {0}")
    @ValueSource(booleans = {true, false})
    void aDyingInstanceFailsOnlyTheTuplesItHasNotAcked(boolean fusion) throws Exception {
        String run = "held-" + fusion;
        GATES.put(run, new CountDownLatch(1));
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new NumberSpout(run, 2, "n"));
        b.setBolt("relay", new AckThenThrow()).shuffleGrouping("spout");
        b.setBolt("gate", new Gate(run)).shuffleGrouping("relay");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, fusion);
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 1);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 120);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            await(() -> NumberSpout.failed(run).contains(1), "tuple 1 to fail when the relay throws");
            // Tree 0 still waits for its child at the gate. Had the dead relay failed the tuple it acked, tree 0 would
            // have failed with tuple 1; now it completes when the gate acks the child.
            GATES.get(run).countDown();
            await(() -> NumberSpout.acked(run).contains(0) || NumberSpout.failed(run).contains(0), "tree 0 to complete");
            assertEquals(Set.of(0), NumberSpout.acked(run), "acked trees");
            assertEquals(Set.of(1), NumberSpout.failed(run), "failed trees");
        }
    }

    private static void await(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(condition.getAsBoolean(), "timed out waiting for " + what);
    }
}
