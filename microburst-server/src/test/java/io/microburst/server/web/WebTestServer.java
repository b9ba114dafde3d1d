package io.microburst.server.web;

import io.microburst.server.MicroburstServer;
import io.microburst.server.ServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;

/** A server with every HTTP port on (UI, logviewer, DRPC over HTTP) for the web tests, and idle topologies to act on. */
final class WebTestServer {
    /** The extra host name the tests' servers allow. */
    static final String ALLOWED = "microburst.test";

    private WebTestServer() {
    }

    static MicroburstServer start(Path dir) throws Exception {
        Map<String, Object> conf = new HashMap<>();
        conf.put(ServerConfig.DIR, dir.toString());
        conf.put(Config.NIMBUS_THRIFT_PORT, 0);
        conf.put(ServerConfig.UI_PORT, 0);
        conf.put(ServerConfig.LOGVIEWER_PORT, 0);
        conf.put(ServerConfig.DRPC, true);
        conf.put(Config.DRPC_PORT, 0);
        conf.put(Config.DRPC_INVOCATIONS_PORT, 0);
        conf.put(ServerConfig.DRPC_HTTP_PORT, 0);
        conf.put(ServerConfig.HTTP_ALLOWED_HOSTS, ALLOWED);
        return MicroburstServer.start(conf);
    }

    static String token(MicroburstServer server) throws Exception {
        return Files.readString(server.dataDir().resolve("ui-token")).trim();
    }

    /**
     * Submits an idle topology of the components Storm's documented rebalance example names, with room (8 tasks) to
     * rebalance spout and split to more executors; returns its id.
     */
    static String submit(MicroburstServer server, String name) throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new IdleSpout(), 1).setNumTasks(8);
        builder.setBolt("split", new IdleBolt(), 1).setNumTasks(8).shuffleGrouping("spout");
        builder.setBolt("count", new IdleBolt(), 1).shuffleGrouping("split");
        Config conf = new Config();
        conf.put(Config.NIMBUS_THRIFT_PORT, server.thriftPort());
        server.cluster().submitTopology(name, conf, builder.createTopology());
        return server.cluster().getTopologySummaryByName(name).get_id();
    }

    static boolean running(MicroburstServer server, String name) {
        try {
            return server.cluster().getTopologySummaryByName(name) != null;
        } catch (NotAliveException e) {
            return false;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    static String status(MicroburstServer server, String name) throws Exception {
        return server.cluster().getTopologySummaryByName(name).get_status();
    }

    static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within 60 s");
            }
            Thread.sleep(10);
        }
    }

    /** Emits nothing. */
    static final class IdleSpout extends BaseRichSpout {
        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        }

        @Override
        public void nextTuple() {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("x"));
        }
    }

    /** Passes nothing on. */
    static final class IdleBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("x"));
        }
    }

}
