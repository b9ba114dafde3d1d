package io.microburst.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Bounded memory under a speed mismatch: a slow consumer slows its producers back to the spout, a bolt that emits
 * thousands of tuples per input blocks instead of buffering them, and time spent blocked is not a timeout.
 * Queue occupancy is measured from outside the engine: tuples sent to a consumer minus tuples it has received.
 */
// try-with-resources is used only to stop the topology, whatever happens.
@SuppressWarnings("try")
class BackpressureTest extends ReliabilityTestBase {
    private static final QueueLimits LIMITS = new QueueLimits(1024, 64);
    private static final long HEAP_GROWTH_LIMIT_MB = 64;

    @Test
    void unthrottledSpoutIntoA100TimesSlowerBoltKeepsHeapFlatShort() throws Exception {
        slowConsumerKeepsMemoryBounded(Duration.ofSeconds(20));
    }

    @Test
    @EnabledIfSystemProperty(named = "microburst.long", matches = "true")
    void unthrottledSpoutIntoA100TimesSlowerBoltKeepsHeapFlatForMinutes() throws Exception {
        slowConsumerKeepsMemoryBounded(Duration.ofMinutes(5));
    }

    private void slowConsumerKeepsMemoryBounded(Duration runFor) throws Exception {
        RunRecord run = Runs.start(0);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", SequenceSpout.endless(run.id()), 1);
            // About 10 k tuples/s at most, against a spout that emits millions a second when unblocked.
            builder.setBolt("slow", new SlowBolt(run.id(), 100_000, false), 1).shuffleGrouping("spout");
            Config conf = conf(600);
            LIMITS.applyTo(conf);
            List<Long> heapSamples = new ArrayList<>();
            long maxQueued = 0;
            long baselineMb;
            long received;
            long emitted;
            try (RunningTopology topology = RunningTopology.submit(cluster, "slowsink", conf, builder.createTopology())) {
                Await.until("the slow bolt to receive tuples", Duration.ofSeconds(60), () -> run.count("received:slow") > 0);
                long warmupEnds = System.nanoTime() + Duration.ofSeconds(4).toNanos();
                while (System.nanoTime() < warmupEnds) {
                    maxQueued = Math.max(maxQueued, queued(run));
                    Thread.sleep(5);
                }
                baselineMb = HeapSampler.usedAfterGcMb();
                heapSamples.add(baselineMb);
                long started = System.nanoTime();
                long nextHeapSample = started + Duration.ofSeconds(2).toNanos();
                while (System.nanoTime() - started < runFor.toNanos()) {
                    maxQueued = Math.max(maxQueued, queued(run));
                    if (System.nanoTime() > nextHeapSample) {
                        heapSamples.add(HeapSampler.usedAfterGcMb());
                        nextHeapSample = System.nanoTime() + Duration.ofSeconds(2).toNanos();
                    }
                    Thread.sleep(5);
                }
                heapSamples.add(HeapSampler.usedAfterGcMb());
                received = run.count("received:slow");
                emitted = run.emitted();
            }
            long finalMb = heapSamples.get(heapSamples.size() - 1);
            long peakMb = heapSamples.stream().mapToLong(Long::longValue).max().orElse(0);
            figure("slow consumer for " + runFor.toSeconds() + " s (" + LIMITS + ")", figures(
                    "spout emitted", emitted, "bolt received", received, "max queued spout->bolt", maxQueued,
                    "queue bound", LIMITS.tuplesBetweenOneProducerAndConsumer(), "heap after GC MB (baseline, peak, final)",
                    baselineMb + ", " + peakMb + ", " + finalMb, "heap samples MB", heapSamples.size() <= 20 ? heapSamples : heapSamples.size() + " samples",
                    "violations", run.violations()));
            assertTrue(received > 0, "the slow bolt made progress");
            assertTrue(maxQueued <= LIMITS.tuplesBetweenOneProducerAndConsumer(),
                    maxQueued + " tuples queued between spout and bolt, bound " + LIMITS.tuplesBetweenOneProducerAndConsumer());
            assertTrue(peakMb - baselineMb <= HEAP_GROWTH_LIMIT_MB,
                    "heap after GC grew from " + baselineMb + " MB to " + peakMb + " MB");
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    @Test
    void aBoltEmittingThousandsOfTuplesPerInputBlocksInsteadOfOverflowing() throws Exception {
        int inputs = 40;
        int burst = 5_000;
        RunRecord run = Runs.start(inputs);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), inputs, false), 1);
            builder.setBolt("burst", new BurstBolt(run.id(), burst), 1).shuffleGrouping("spout");
            builder.setBolt("slow", new SlowBolt(run.id(), 20_000, false), 1).shuffleGrouping("burst");
            Config conf = conf(600);
            LIMITS.applyTo(conf);
            long maxQueued = 0;
            try (RunningTopology topology = RunningTopology.submit(cluster, "burst", conf, builder.createTopology())) {
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                while (run.acked() + run.failed() < inputs && System.nanoTime() < deadline) {
                    long received = run.count("received:slow");
                    maxQueued = Math.max(maxQueued, run.count("burst emitted") - received);
                    Thread.sleep(2);
                }
            }
            figure("burst of " + burst + " per input into a slow bolt (" + LIMITS + ")", figures(
                    "inputs", inputs, "acks", run.acked(), "fails", run.failed(),
                    "burst tuples emitted", run.count("burst emitted"), "received", run.count("received:slow"),
                    "max queued burst->slow", maxQueued, "queue bound", LIMITS.tuplesBetweenOneProducerAndConsumer(),
                    "violations", run.violations()));
            assertEquals(inputs, run.acked(), "every input tree completes");
            assertEquals(0, run.failed());
            assertTrue(maxQueued <= LIMITS.tuplesBetweenOneProducerAndConsumer(),
                    maxQueued + " tuples queued between burst and slow bolt, bound " + LIMITS.tuplesBetweenOneProducerAndConsumer());
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    /** STORM-2359: a slow but healthy topology must not time tuples out while they wait behind backpressure. */
    @Test
    void timeBlockedByBackpressureDoesNotTimeTuplesOut() throws Exception {
        int total = 600;
        QueueLimits small = new QueueLimits(256, 16);
        RunRecord run = Runs.start(total);
        try {
            TopologyBuilder builder = new TopologyBuilder();
            builder.setSpout("spout", new SequenceSpout(run.id(), total, false), 1);
            // 10 ms a tuple behind a 256-slot queue: a tuple waits about 2.6 s, more than twice the 1 s timeout.
            builder.setBolt("slow", new SlowBolt(run.id(), 10_000_000, false), 1).shuffleGrouping("spout");
            Config conf = conf(1);
            small.applyTo(conf);
            try (RunningTopology topology = RunningTopology.submit(cluster, "bpnotimeout", conf, builder.createTopology())) {
                Await.until("every tuple to be acked or failed", Duration.ofMinutes(2),
                        () -> run.acked() + run.failed() >= total,
                        () -> "acked " + run.acked() + " failed " + run.failed());
            }
            long slowest = 0;
            for (long seq = 0; seq < total; seq++) {
                slowest = Math.max(slowest, Math.max(run.ackDelayMillis(seq), run.failDelayMillis(seq)));
            }
            figure("blocked by backpressure, T = 1 s (" + small + ")", figures("tuples", total, "acks", run.acked(),
                    "fails", run.failed(), "slowest tree ms", slowest, "violations", run.violations()));
            assertEquals(0, run.failed(), "tuples failed as timed out while the topology was merely slow");
            assertEquals(total, run.acked());
            assertEquals(List.of(), run.violations());
        } finally {
            Runs.end(run);
        }
    }

    private static long queued(RunRecord run) {
        long received = run.count("received:slow");
        return run.emitted() - received;
    }
}
