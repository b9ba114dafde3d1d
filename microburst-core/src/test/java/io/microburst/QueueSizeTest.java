package io.microburst;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
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
 * How many tuples an executor's receive queue holds: Microburst's own key, else Storm's
 * {@code topology.executor.receive.buffer.size} where a topology changes it, else a default of Microburst's own.
 * Measured from outside: a bolt that blocks on its first tuple holds its producer back once the queue between them is
 * full, and the spout's emits then stop.
 */
class QueueSizeTest {
    static final Map<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();
    static final Map<String, CountDownLatch> RELEASE = new ConcurrentHashMap<>();

    /** Emits unanchored tuples as fast as it is let, counting each emit that returned. */
    public static class Flood extends BaseRichSpout {
        private final String run;
        private transient SpoutOutputCollector collector;
        private transient AtomicLong emitted;

        Flood(String run) {
            this.run = run;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.emitted = EMITTED.get(run);
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(emitted.get()));
            emitted.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Blocks in its first execute until the test releases it. */
    public static class Stuck extends BaseBasicBolt {
        private final String run;

        Stuck(String run) {
            this.run = run;
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            try {
                RELEASE.get(run).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            // emits nothing
        }
    }

    /**
     * Runs spout -> stuck bolt on two threads and returns how many emits the spout made before it was held back: the
     * count once it has reached {@code queue} (a spout cannot be held back sooner) and then stayed still for 5 reads.
     * Waiting for the queue to be reached first means a spout merely descheduled on a loaded machine is not taken for
     * one held back; a queue smaller than asked still fails the bound after it.
     */
    private static long emittedBeforeHeldBack(String run, Config conf, int queue) throws Exception {
        EMITTED.put(run, new AtomicLong());
        RELEASE.put(run, new CountDownLatch(1));
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("flood", new Flood(run));
        b.setBolt("stuck", new Stuck(run)).shuffleGrouping("flood");
        conf.put(MicroburstConfig.FUSION, false);
        // One tuple per batch: the queue is bounded in batches, and a producer whose calls look slow (on a loaded
        // machine) hands partial batches over, so with larger batches the tuples a full queue holds would vary.
        conf.put(MicroburstConfig.PRODUCER_BATCH_SIZE, 1);
        MicroburstCluster cluster = new MicroburstCluster();
        try {
            cluster.submitTopology(run, conf, b.createTopology());
            AtomicLong emitted = EMITTED.get(run);
            long last = -1;
            int unchanged = 0;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (unchanged < 5 || last < queue) {
                assertTrue(System.nanoTime() < deadline, run + ": the spout was never held back after filling a queue of "
                    + queue + " (" + emitted.get() + ")");
                Thread.sleep(50);
                long now = emitted.get();
                unchanged = now == last && now > 0 ? unchanged + 1 : 0;
                last = now;
            }
            return last;
        } finally {
            // released before the cluster stops, which waits for the bolt's execute to return
            RELEASE.get(run).countDown();
            cluster.close();
        }
    }

    private static void assertHeldBackWithin(long emitted, int queue) {
        // the queue full, the tuple the bolt is in, and the spout's tuple waiting for room
        assertTrue(emitted >= queue, "emits " + emitted + " fill a queue of " + queue);
        assertTrue(emitted <= queue + 3, "emits " + emitted + " stay within a queue of " + queue + " and two more");
    }

    @Test
    void stormsReceiveBufferSizeBoundsTheQueue() throws Exception {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 256);
        assertHeldBackWithin(emittedBeforeHeldBack("storm-key", conf, 256), 256);
    }

    @Test
    void microburstsOwnKeyOverridesStorms() throws Exception {
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 4096);
        conf.put(MicroburstConfig.EXECUTOR_QUEUE_SIZE, 128);
        assertHeldBackWithin(emittedBeforeHeldBack("own-key", conf, 128), 128);
    }

    @Test
    void theDefaultHoldsFourThousandTuplesEvenWhereStormsDefaultIsSpelledOut() throws Exception {
        int queue = MicroburstConfig.DEFAULT_EXECUTOR_QUEUE_SIZE;
        assertHeldBackWithin(emittedBeforeHeldBack("default", new Config(), queue), queue);
        Config spelledOut = new Config();
        spelledOut.put(Config.TOPOLOGY_EXECUTOR_RECEIVE_BUFFER_SIZE, 32768);
        assertHeldBackWithin(emittedBeforeHeldBack("storms-default", spelledOut, queue), queue);
    }

    @Test
    void aQueueOrBatchSizeBelowOneIsRefusedByName() throws Exception {
        for (String key : new String[] {MicroburstConfig.EXECUTOR_QUEUE_SIZE, MicroburstConfig.PRODUCER_BATCH_SIZE}) {
            Config conf = new Config();
            conf.put(key, 0);
            TopologyBuilder b = new TopologyBuilder();
            b.setSpout("flood", new Flood("refused"));
            try (MicroburstCluster cluster = new MicroburstCluster()) {
                InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                    () -> cluster.submitTopology("refused", conf, b.createTopology()));
                assertTrue(e.get_msg().contains(key) && e.get_msg().contains("refused"), e.get_msg());
            }
        }
    }
}
