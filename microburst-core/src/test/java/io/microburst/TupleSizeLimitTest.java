package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.junit.jupiter.api.Test;

/**
 * Queues are bounded in tuples, so a few huge tuples could fill the heap before backpressure holds their producer:
 * a tuple over {@code microburst.tuple.max.bytes} (by default the maximum heap / 32) is refused where it is emitted,
 * with an error naming the component, stream and field, while ordinary tuples keep flowing.
 */
class TupleSizeLimitTest {
    static final AtomicInteger SMALL_DONE = new AtomicInteger();

    /**
     * Emits, unanchored, on stream "blobs" on every call, a tuple of {@code fields} fields: "key", small strings, and
     * last "payload", a fresh array of {@code bytes} bytes.
     */
    public static class HugeSpout extends BaseRichSpout {
        private final int bytes;
        private final int fields;
        private transient SpoutOutputCollector collector;

        public HugeSpout(int bytes, int fields) {
            this.bytes = bytes;
            this.fields = fields;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            Values values = new Values("key");
            for (int i = 2; i < fields; i++) {
                values.add("small");
            }
            values.add(new byte[bytes]);
            collector.emit("blobs", values);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            List<String> names = new ArrayList<>(List.of("key"));
            for (int i = 2; i < fields; i++) {
                names.add("f" + i);
            }
            names.add("payload");
            declarer.declareStream("blobs", new Fields(names));
        }
    }

    /** Holds every tuple for a while, so that queues in front of it fill. */
    public static class SlowBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
            if (input.getValue(0) instanceof Integer) {
                SMALL_DONE.incrementAndGet();
                return;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void aTupleOverTheConfiguredLimitIsRefusedNamingComponentStreamAndField() throws Exception {
        refusedNamingComponentStreamAndField(2);
    }

    /** A six-field tuple whose last field is over the limit: refused, naming that field. */
    @Test
    void aWideTupleOverTheLimitIsRefusedNamingItsField() throws Exception {
        refusedNamingComponentStreamAndField(6);
    }

    private void refusedNamingComponentStreamAndField(int fields) throws Exception {
        SMALL_DONE.set(0);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("huge", new HugeSpout(2 << 20, fields));
        b.setSpout("small", new ReplayingSpout("size-limit-small-" + fields, 1000));
        b.setBolt("sink", new SlowBolt()).shuffleGrouping("huge", "blobs").shuffleGrouping("small");
        Config conf = new Config();
        conf.put(MicroburstConfig.TUPLE_MAX_BYTES, 1 << 20);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("size-limit", conf, b.createTopology());
            ReplayingSpout.await("the huge spout's refusal is reported", 60, () -> !errors(cluster, "huge").isEmpty());
            String error = errors(cluster, "huge").get(0).get_error();
            assertTrue(error.contains("'huge'") && error.contains("stream 'blobs'") && error.contains("'payload'")
                && error.contains(MicroburstConfig.TUPLE_MAX_BYTES), error);
            ReplayingSpout.await("small tuples still flow", 60, () -> SMALL_DONE.get() >= 1000);
            assertTrue(errors(cluster, "sink").isEmpty(), "the sink never saw a huge tuple");
        }
    }

    private static List<ErrorInfo> errors(MicroburstCluster cluster, String component) {
        try {
            List<ErrorInfo> list = cluster.getTopologyInfo(cluster.getTopologySummaries().get(0).get_id()).get_errors()
                .get(component);
            return list == null ? List.of() : list;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * With no limit configured, in a JVM of 128 MB: 16 MB tuples in front of a slow bolt. Before the limit existed the
     * queue took them until the heap ran out; now the first is refused by the default limit (4 MB here).
     */
    @Test
    void byDefaultHugeTuplesCannotFillASmallHeap() throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java").getPath(),
            "-Xmx128m", "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
            SmallHeapRun.class.getName()).redirectErrorStream(true);
        Process p = pb.start();
        byte[] out;
        try {
            out = p.getInputStream().readAllBytes();
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the run ends");
        } finally {
            p.destroyForcibly();
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("REFUSED") && text.contains("'huge'") && text.contains("stream 'blobs'"), text);
    }

    /** The forked run of {@link #byDefaultHugeTuplesCannotFillASmallHeap}. */
    public static final class SmallHeapRun {
        public static void main(String[] args) throws Exception {
            TopologyBuilder b = new TopologyBuilder();
            b.setSpout("huge", new HugeSpout(16 << 20, 2));
            b.setBolt("sink", new SlowBolt()).shuffleGrouping("huge", "blobs");
            try (MicroburstCluster cluster = new MicroburstCluster()) {
                cluster.submitTopology("small-heap", new Config(), b.createTopology());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (System.nanoTime() < deadline) {
                    List<ErrorInfo> errors = errors(cluster, "huge");
                    if (!errors.isEmpty()) {
                        System.out.println("REFUSED " + errors.get(0).get_error());
                        return;
                    }
                    Thread.sleep(50);
                }
            }
            System.out.println("NOT REFUSED");
            System.exit(1);
        }
    }
}
