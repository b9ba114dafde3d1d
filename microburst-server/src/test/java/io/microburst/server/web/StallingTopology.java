package io.microburst.server.web;

import io.microburst.config.ConfigKeys;
import io.microburst.server.MicroburstServer;
import java.util.Map;
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

/**
 * An acked topology for the tuple-tracing view: numbers with message ids, a bolt that fails every fourth and passes
 * the rest on anchored, and a bolt that stalls in its first execute until {@link #release} lets it go, so trees wait
 * at it and time out there (message timeout 2 s, max spout pending 20).
 */
final class StallingTopology {
    private static final Map<String, CountDownLatch> STALLS = new ConcurrentHashMap<>();

    private StallingTopology() {
    }

    /** Submits it as {@code name}; returns its id. */
    static String submit(MicroburstServer server, String name) throws Exception {
        STALLS.put(name, new CountDownLatch(1));
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("numbers", new StormRestApiDocumentTest.Numbers(), 1);
        builder.setBolt("failer", new Failer(), 1).shuffleGrouping("numbers");
        builder.setBolt("staller", new Staller(name), 1).shuffleGrouping("failer");
        Config conf = new Config();
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 20);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 2);
        conf.put(ConfigKeys.FUSION, false);
        server.cluster().submitTopology(name, conf, builder.createTopology());
        return server.cluster().getTopologySummaryByName(name).get_id();
    }

    /** Lets the staller of {@code name} go on. */
    static void release(String name) {
        CountDownLatch stall = STALLS.remove(name);
        if (stall != null) {
            stall.countDown();
        }
    }

    /** Fails n % 4 == 1; passes the others on, anchored, and acks them. */
    static final class Failer extends BaseRichBolt {
        private OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (input.getLong(0) % 4 == 1) {
                collector.fail(input);
            } else {
                collector.emit(input, new Values(input.getLong(0)));
                collector.ack(input);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Waits in its first execute until released; acks everything. */
    static final class Staller extends BaseRichBolt {
        private final String name;
        private OutputCollector collector;

        Staller(String name) {
            this.name = name;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            CountDownLatch stall = STALLS.get(name);
            try {
                if (stall != null) {
                    stall.await();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
