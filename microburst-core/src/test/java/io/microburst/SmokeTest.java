package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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

/** End-to-end: a finite spout through a bolt chain, with and without acking. */
class SmokeTest {
    static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    static AtomicLong counter(String key) {
        return COUNTS.computeIfAbsent(key, k -> new AtomicLong());
    }

    public static class NumberSpout extends BaseRichSpout {
        private final String key;
        private final int count;
        private SpoutOutputCollector collector;
        private int next;

        NumberSpout(String key, int count) {
            this.key = key;
            this.count = count;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < count) {
                collector.emit(new Values(next), next);
                next++;
            }
        }

        @Override
        public void ack(Object msgId) {
            counter(key + ".acked").incrementAndGet();
        }

        @Override
        public void fail(Object msgId) {
            counter(key + ".failed").incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    public static class PassBolt extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            collector.emit(input, new Values(input.getInteger(0)));
            collector.emit(input, new Values(input.getInteger(0) + 1));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    public static class CountBolt extends BaseRichBolt {
        private final String key;
        private OutputCollector collector;

        CountBolt(String key) {
            this.key = key;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            counter(key + ".seen").incrementAndGet();
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void runsAckedChain() throws Exception {
        int n = 100_000;
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new NumberSpout("chain", n));
        b.setBolt("pass", new PassBolt(), 2).shuffleGrouping("spout");
        b.setBolt("count", new CountBolt("chain"), 2).fieldsGrouping("pass", new Fields("n"));
        Config conf = new Config();
        conf.setMaxSpoutPending(1000);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("chain", conf, b.createTopology());
            long deadline = System.currentTimeMillis() + 30_000;
            while (counter("chain.acked").get() < n && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(n, counter("chain.acked").get());
            assertEquals(0, counter("chain.failed").get());
            assertEquals(2L * n, counter("chain.seen").get());
            assertTrue(cluster.getTopologyInfoByName("chain").get_executors_size() == 5);
        }
    }
}
