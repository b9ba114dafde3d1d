package io.microburst.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.MicroburstConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * microburst.serialization.check: a value Storm's Kryo setup cannot ship is reported by component, stream and field,
 * whether a spout or a bolt emits it; registered values and Storm's own types pass; with the key unset nothing is
 * checked (Microburst passes references).
 */
class SerializationCheckTest {
    static final AtomicLong RECEIVED = new AtomicLong();
    static final AtomicLong FORWARDED = new AtomicLong();

    /** A user type with no Kryo registration. */
    public static final class Point {
        public int x;
        public int y;
    }

    @BeforeEach
    void reset() {
        RECEIVED.set(0);
        FORWARDED.set(0);
    }

    @Test
    void aSpoutsUnregisteredValueIsReportedByComponentStreamAndField() throws Exception {
        Config conf = new Config();
        conf.put(MicroburstConfig.SERIALIZATION_CHECK, true);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("check-spout", conf, topology(new PointSpout(true), false));
            String error = awaitError(cluster, "check-spout", "points");
            assertTrue(error.contains("component 'points', stream 'shapes', field 'point'"), error);
            assertTrue(error.contains(Point.class.getName()), error);
            assertTrue(error.contains("topology.kryo.register"), error);
            assertEquals(0, RECEIVED.get(), "a refused tuple is not emitted");
        }
    }

    @Test
    void aBoltsUnregisteredValueIsReportedByComponentStreamAndField() throws Exception {
        Config conf = new Config();
        conf.put(MicroburstConfig.SERIALIZATION_CHECK, true);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("check-bolt", conf, topology(new PointSpout(false), true));
            String error = awaitError(cluster, "check-bolt", "to-point");
            assertTrue(error.contains("component 'to-point', stream 'default', field 'made'"), error);
            assertTrue(error.contains(Point.class.getName()), error);
        }
    }

    @Test
    void registeredAndStormTypesPass() throws Exception {
        Config conf = new Config();
        conf.put(MicroburstConfig.SERIALIZATION_CHECK, true);
        conf.registerSerialization(Point.class);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("check-registered", conf, topology(new PointSpout(true), true));
            await(() -> RECEIVED.get() >= 1000 && FORWARDED.get() >= 1000, "1000 tuples through both");
            assertEquals(Map.of(), cluster.getTopologyInfoByName("check-registered").get_errors().entrySet().stream()
                .filter(e -> !e.getValue().isEmpty()).collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                    Map.Entry::getValue)));
        }
    }

    @Test
    void withTheKeyUnsetNothingIsChecked() throws Exception {
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("unchecked", new Config(), topology(new PointSpout(true), true));
            await(() -> RECEIVED.get() >= 1000 && FORWARDED.get() >= 1000, "1000 tuples through both");
        }
    }

    private static org.apache.storm.generated.StormTopology topology(PointSpout spout, boolean boltMakesPoints) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("points", spout);
        b.setBolt("to-point", new ToPointBolt(boltMakesPoints)).shuffleGrouping("points", "shapes");
        b.setBolt("sink", new SinkBolt()).shuffleGrouping("to-point");
        return b.createTopology();
    }

    private static String awaitError(MicroburstCluster cluster, String topology, String component) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            List<ErrorInfo> errors = cluster.getTopologyInfoByName(topology).get_errors().get(component);
            if (errors != null && !errors.isEmpty()) {
                return errors.get(0).get_error();
            }
            assertTrue(System.currentTimeMillis() < deadline, "no error reported by " + component);
            Thread.sleep(10);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting for " + what);
            Thread.sleep(10);
        }
    }

    /** Emits (id, point) on stream "shapes"; the point is a {@link Point} or, when not {@code points}, a String. */
    public static final class PointSpout extends BaseRichSpout {
        private final boolean points;
        private SpoutOutputCollector collector;
        private int next;

        PointSpout(boolean points) {
            this.points = points;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (next < 1000) {
                Object point = points ? new Point() : "p" + next;
                collector.emit("shapes", new Values(next++, point));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("shapes", new Fields("id", "point"));
        }
    }

    /** Forwards (id, made): a new {@link Point} when {@code makesPoints}, else the id as a Long. */
    public static final class ToPointBolt extends BaseBasicBolt {
        private final boolean makesPoints;

        ToPointBolt(boolean makesPoints) {
            this.makesPoints = makesPoints;
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            RECEIVED.incrementAndGet();
            Object made = makesPoints ? new Point() : Long.valueOf(input.getInteger(0));
            collector.emit(new Values(input.getInteger(0), made));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("id", "made"));
        }
    }

    /** Counts what arrives. */
    public static final class SinkBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            FORWARDED.incrementAndGet();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
