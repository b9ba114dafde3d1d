package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.metrics.LatencyHistogram;
import io.microburst.metrics.TaskStats;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.storm.Config;
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
import org.junit.jupiter.api.Timeout;

/**
 * A scrape reads (walks into buckets) only the latency histograms that recorded since the last scrape: a task with no
 * new sample has the same lines again, unread; a new sample shows in the next scrape with the right counts; every
 * series stays while its task lives; and the text is, line for line, what the client library's writer makes of the
 * same counters ({@link ClientWriterReference}).
 */
@Timeout(120)
class PrometheusHistogramLinesTest {
    /** Tuples the spout may still emit (a test's gate; one topology per test run). */
    private static final AtomicInteger PERMITS = new AtomicInteger();

    @Test
    void histogramsWithoutNewSamplesAreNotReadAgain() throws Exception {
        AtomicLong now = new AtomicLong();
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("gate", new GatedSpout(), 1);
            builder.setBolt("pass", new PassBolt(), 1).shuffleGrouping("gate");
            Config conf = new Config();
            conf.put(Config.TOPOLOGY_STATS_SAMPLE_RATE, 1.0); // every tuple timed: counts are exact
            cluster.submitTopology("gated", conf, builder.createTopology());
            PrometheusMetrics metrics = new PrometheusMetrics(cluster, now::get);

            release(cluster, 20);
            String first = scrape(metrics, now);
            long read = metrics.histogramsRead();
            assertEquals(2, read, "the spout's complete and the bolt's execute histograms, read once each");
            assertEquals(20.0, count(first, "microburst_complete_latency_seconds"));
            assertEquals(20.0, count(first, "microburst_execute_latency_seconds"));

            String second = scrape(metrics, now);
            assertEquals(read, metrics.histogramsRead(), "histograms with no new sample read again");
            assertEquals(histogramLines(first), histogramLines(second));
            assertEquals(series(first), series(second), "the same series in both scrapes");

            release(cluster, 5);
            String third = scrape(metrics, now);
            assertEquals(read + 2, metrics.histogramsRead(), "both histograms had new samples");
            assertEquals(25.0, count(third, "microburst_complete_latency_seconds"));
            assertEquals(25.0, count(third, "microburst_execute_latency_seconds"));
            assertEquals(25.0, bucket(third, "microburst_execute_latency_seconds", "+Inf"));
            assertEquals(series(first), series(third));

            // the same lines as the client library's writer makes from the same counters (once the bolt's acks,
            // counted after its execute latencies, are all in)
            try {
                WebTestServer.awaitTrue(() -> ownLines(scrapeOrFail(metrics, now)).equals(referenceLines(cluster)));
            } catch (AssertionError notYet) {
                assertEquals(referenceLines(cluster), ownLines(scrape(metrics, now)), "lines unlike the client's");
            }
        }
    }

    /** The microburst families' sample lines (no uptime: a clock; no build: static), sorted. */
    private static List<String> ownLines(String text) {
        return text.lines().filter(l -> l.startsWith("microburst_") && !l.startsWith("microburst_topology_uptime")
            && !l.startsWith("microburst_build")).sorted().toList();
    }

    private static List<String> referenceLines(MicroburstCluster cluster) {
        try {
            return ownLines(ClientWriterReference.text(cluster));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static String scrapeOrFail(PrometheusMetrics metrics, AtomicLong now) {
        try {
            return scrape(metrics, now);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Lets the spout emit {@code n} more tuples and waits until both histograms recorded them. */
    private static void release(MicroburstCluster cluster, int n) throws Exception {
        long before = recorded(cluster);
        PERMITS.addAndGet(n);
        long target = before + 2L * n;
        WebTestServer.awaitTrue(() -> recordedOrZero(cluster) == target);
    }

    private static long recordedOrZero(MicroburstCluster cluster) {
        try {
            return recorded(cluster);
        } catch (Exception e) {
            return 0;
        }
    }

    /** Latencies recorded by the spout's complete and the bolt's execute histograms together. */
    private static long recorded(MicroburstCluster cluster) throws Exception {
        long sum = 0;
        for (TaskStats task : cluster.getTaskStats("gated")) {
            for (LatencyHistogram h : new LatencyHistogram[] {task.executeLatencies(), task.completeLatencies()}) {
                sum += h == null ? 0 : h.recordedCount();
            }
        }
        return sum;
    }

    /** A new scrape's text (the shared answer's interval passed). */
    private static String scrape(PrometheusMetrics metrics, AtomicLong now) throws Exception {
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(PrometheusMetrics.SHARED_MILLIS));
        String text = new String(metrics.answer(), StandardCharsets.UTF_8);
        PrometheusText.parse(text); // well-formed
        return text;
    }

    private static double count(String text, String family) {
        return PrometheusText.parse(text).stream().filter(s -> s.name().equals(family + "_count"))
            .mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static double bucket(String text, String family, String le) {
        return PrometheusText.parse(text).stream().filter(s -> s.name().equals(family + "_bucket")
            && le.equals(s.labels().get("le"))).mapToDouble(PrometheusText.Sample::value).sum();
    }

    private static List<String> histogramLines(String text) {
        List<String> lines = text.lines().filter(l -> l.startsWith("microburst_") && l.contains("latency_seconds_"))
            .toList();
        assertTrue(lines.size() >= 2 * 18, text);
        return lines;
    }

    /** Every microburst series (name and labels), without values. */
    private static List<String> series(String text) {
        return PrometheusText.parse(text).stream().filter(s -> s.name().startsWith("microburst_"))
            .map(s -> s.name() + new java.util.TreeMap<>(s.labels())).sorted().collect(Collectors.toList());
    }

    /** Emits one tuple, with a message id, per permit. */
    static final class GatedSpout extends BaseRichSpout {
        private SpoutOutputCollector collector;
        private long n;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void nextTuple() {
            if (PERMITS.getAndUpdate(p -> p > 0 ? p - 1 : 0) > 0) {
                collector.emit(new Values(n), n++);
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("n"));
        }
    }

    /** Takes each tuple (acked by the basic bolt). */
    static final class PassBolt extends BaseBasicBolt {
        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
