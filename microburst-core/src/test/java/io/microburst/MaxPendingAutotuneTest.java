package io.microburst;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.Config;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/** With auto-tuning on, max spout pending moves away from its start when more in flight means more progress. */
class MaxPendingAutotuneTest {
    static final AtomicLong MAX_PENDING_SEEN = new AtomicLong();
    static final AtomicLong ACKED = new AtomicLong();

    public static class TrackingSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;
        private long id;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            collector.emit(new Values(id), id++);
            MAX_PENDING_SEEN.accumulateAndGet(collector.getPendingCount(), Math::max);
        }

        @Override
        public void ack(Object msgId) {
            ACKED.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /**
     * Acks each tuple 2 ms after it arrives, from a timer thread of the bolt's own, so throughput grows with the number
     * in flight. (Acking only from execute would stall: once every tuple in flight is held here, nothing arrives to
     * trigger the acks, and the spout waits at max spout pending until the trees time out.)
     */
    public static class DelayedAckBolt extends BaseRichBolt {
        private transient ScheduledExecutorService acker;
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.acker = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "delayed-acker");
                t.setDaemon(true);
                return t;
            });
        }

        @Override
        public void execute(Tuple input) {
            acker.schedule(() -> collector.ack(input), 2, TimeUnit.MILLISECONDS);
        }

        @Override
        public void cleanup() {
            acker.shutdownNow();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void tunerRaisesTheBoundWhileProgressGrows() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new TrackingSpout());
        b.setBolt("bolt", new DelayedAckBolt()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.setMaxSpoutPending(10);
        conf.put(MicroburstConfig.MAX_SPOUT_PENDING_AUTOTUNE, true);
        conf.put(MicroburstConfig.MAX_SPOUT_PENDING_AUTOTUNE_SECS, 1);
        conf.put(MicroburstConfig.FUSION, false);
        MAX_PENDING_SEEN.set(0); // a fresh start when the test runs again in the same JVM
        ACKED.set(0);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("autotune", conf, b.createTopology());
            // the tuner's first turn (after 1 s) raises the bound; the spout then fills it at once
            ReplayingSpout.await("in flight past the initial bound of 10", 60,
                () -> MAX_PENDING_SEEN.get() > 10);
        }
        assertTrue(MAX_PENDING_SEEN.get() > 10, "in flight never went past the initial bound: " + MAX_PENDING_SEEN.get());
        assertTrue(ACKED.get() > 0);
    }
}
