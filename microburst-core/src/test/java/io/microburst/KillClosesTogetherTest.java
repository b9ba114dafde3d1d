package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
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
import org.junit.jupiter.api.Test;

/**
 * A kill stops the executors' loops producers first, but does not make a consumer wait for its producer's close: the
 * closes overlap, so a kill (and an upgrade's stop of the old version) takes the longest close, not their sum (a
 * Trident coordinator's ZooKeeper client takes 100 ms to close, and there is one per coordinator). Here the producer's
 * cleanup waits for the consumer's to begin; before the change it could not begin until the producer had stopped,
 * so the wait ran out. Every tuple emitted is still executed by both bolts. {@code -Dmicroburst.kill.repeat=20} runs
 * it 20 times.
 */
class KillClosesTogetherTest {
    static final AtomicInteger EMITTED = new AtomicInteger();
    static final AtomicInteger EXECUTED_FIRST = new AtomicInteger();
    static final AtomicInteger EXECUTED_SECOND = new AtomicInteger();
    static volatile CountDownLatch secondCleanupBegan;
    static volatile boolean firstSawSecond;

    @Test
    void aConsumerClosesWhileItsProducerStillCloses() throws Exception {
        for (int i = 0; i < Integer.getInteger("microburst.kill.repeat", 1); i++) {
            runOnce();
        }
    }

    private void runOnce() throws Exception {
        EMITTED.set(0);
        EXECUTED_FIRST.set(0);
        EXECUTED_SECOND.set(0);
        secondCleanupBegan = new CountDownLatch(1);
        firstSawSecond = false;
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new Numbers());
        builder.setBolt("first", new First()).shuffleGrouping("numbers");
        builder.setBolt("second", new Second()).shuffleGrouping("first");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false); // each component on a thread of its own
        conf.put(MicroburstConfig.EXECUTOR_STOP_TIMEOUT_MS, 60_000); // the drain may last 30 s, past the wait below
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("closes", conf, builder.createTopology());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (EXECUTED_SECOND.get() < 100 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("closes", now);
        }
        assertTrue(firstSawSecond, "the consumer's cleanup began while its producer's cleanup waited for it");
        assertEquals(EMITTED.get(), EXECUTED_FIRST.get(), "every tuple emitted executed by the first bolt");
        assertEquals(EMITTED.get(), EXECUTED_SECOND.get(), "and by the second");
    }

    /** Emits increasing numbers, unanchored. */
    public static final class Numbers extends BaseRichSpout {
        private transient SpoutOutputCollector collector;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(EMITTED.incrementAndGet()));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Passes each number on; its cleanup waits (at most 20 s) for the second bolt's cleanup to begin. */
    public static final class First extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            EXECUTED_FIRST.incrementAndGet();
            collector.emit(new Values(tuple.getValue(0)));
        }

        @Override
        public void cleanup() {
            try {
                firstSawSecond = secondCleanupBegan.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Counts the numbers; its cleanup says it began. */
    public static final class Second extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            EXECUTED_SECOND.incrementAndGet();
        }

        @Override
        public void cleanup() {
            secondCleanupBegan.countDown();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
