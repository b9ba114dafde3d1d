package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
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
 * Executors stuck in user code are stopped together, with one deadline, not one after another with a deadline each.
 * Counted, not timed: each of four stuck executes lets go only once all four executors have been interrupted. Stopped
 * together, every executor is interrupted while all are inside one stop, so all four let go and close() returns only
 * after all four have, none given up on. Stopped one after another, the first would be interrupted alone and stay
 * stuck past its own deadline: the stop would give up on it (and on the next two), and log a warning naming them.
 */
class ParallelStopTest {
    static final AtomicInteger STUCK = new AtomicInteger();
    static final AtomicInteger INTERRUPTED = new AtomicInteger();
    static volatile CountDownLatch allInterrupted;
    static volatile CountDownLatch release;
    static volatile List<CountDownLatch> exited;

    /** Stuck in its first execute until every stuck executor has been interrupted; deaf to a lone interrupt. */
    public static class Stuck extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            STUCK.incrementAndGet();
            int order = -1;
            while (release.getCount() > 0 && allInterrupted.getCount() > 0) {
                try {
                    allInterrupted.await();
                } catch (InterruptedException e) {
                    if (order < 0) {
                        order = INTERRUPTED.getAndIncrement();
                        allInterrupted.countDown();
                    }
                }
            }
            if (order >= 0) {
                exited.get(order).countDown();
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void fourStuckExecutorsAreInterruptedWithinOneStopAndNoneIsGivenUpOn() throws Exception {
        STUCK.set(0);
        INTERRUPTED.set(0);
        allInterrupted = new CountDownLatch(4);
        release = new CountDownLatch(1);
        exited = List.of(new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1));
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout("stuck", 1_000));
        b.setBolt("stuck", new Stuck(), 4).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(MicroburstConfig.FUSION, false);
        // interrupts at half of it; the other half is for four let-go threads to end, however busy the machine
        conf.put(MicroburstConfig.EXECUTOR_STOP_TIMEOUT_MS, 6_000);
        try (LogCapture warnings = new LogCapture("io.microburst.runtime.topology.StopSequence")) {
            MicroburstCluster cluster = new MicroburstCluster();
            cluster.submitTopology("stuck", conf, b.createTopology());
            ReplayingSpout.await("four stuck executors", 30, () -> STUCK.get() == 4);
            cluster.close();
            assertEquals(List.of(), warnings.messages, "executors the stop gave up on");
            assertEquals(4, INTERRUPTED.get(), "stuck executors interrupted by the stop");
            for (int i = 0; i < 4; i++) {
                assertEquals(0, exited.get(i).getCount(), "close() returned before the executor interrupted "
                    + (i + 1) + ". of 4 let go: the stop gave up on it");
            }
        } finally {
            release.countDown();
        }
    }
}
