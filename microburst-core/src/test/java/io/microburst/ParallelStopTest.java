package io.microburst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Config;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Executors stuck in user code (deaf to interrupts) are waited for together, with one deadline: four of them delay
 * close() by about one stop timeout, not four.
 */
class ParallelStopTest {
    static final AtomicInteger STUCK = new AtomicInteger();
    static volatile CountDownLatch release;

    /** Gets stuck in its first execute until the test releases it, ignoring interrupts. */
    public static class Stuck extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            STUCK.incrementAndGet();
            CountDownLatch gate = release;
            while (gate.getCount() > 0) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    // deaf to interrupts, as stuck user code can be
                }
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void fourStuckExecutorsDelayCloseByOneTimeoutNotFour() throws Exception {
        STUCK.set(0);
        release = new CountDownLatch(1);
        long timeoutMs = 2_000;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout("stuck", 1_000));
        b.setBolt("stuck", new Stuck(), 4).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(MicroburstConfig.EXECUTOR_STOP_TIMEOUT_MS, timeoutMs);
        long elapsedMs;
        try {
            MicroburstCluster cluster = new MicroburstCluster();
            cluster.submitTopology("stuck", conf, b.createTopology());
            ReplayingSpout.await("four stuck executors", 30, () -> STUCK.get() == 4);
            long start = System.nanoTime();
            cluster.close();
            elapsedMs = (System.nanoTime() - start) / 1_000_000;
        } finally {
            release.countDown();
        }
        // one after another it was four timeouts (8 s); together, one, and well under two
        assertTrue(elapsedMs < 2 * timeoutMs, "close() took " + elapsedMs + " ms with a stop timeout of " + timeoutMs);
    }
}
