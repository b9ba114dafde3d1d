package io.microburst.bench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstCluster;
import io.microburst.bench.probe.Probes;
import io.microburst.bench.topology.TextCorpus;
import io.microburst.bench.topology.scoring.MovingAverage;
import io.microburst.bench.topology.scoring.Readings;
import io.microburst.bench.topology.scoring.SpikeRule;
import io.microburst.bench.topology.scoring.Spikes;
import io.microburst.bench.workload.ScoringWorkloads;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.storm.Config;
import org.apache.storm.generated.KillOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The Flink jobs compute what the Storm topologies compute, on the same fixed input: the scoring pipeline finds the same
 * spikes on Flink and on the Storm topology (run on Microburst), and both match a plain loop over the same readings;
 * Flink's WordCount counts the words a plain loop counts for the same seeded sentences. Parallelism 1, where the order of
 * each sensor's readings, and so every average, is fixed. A few seconds, but the Flink module is built only with
 * {@code -P flink}, so behind {@code -Dmicroburst.long=true} as well.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class SameResultsTest {
    private static final int READINGS = 50_000;
    private static final int SENTENCES = 5_000;
    private static final long WAIT_MILLIS = 60_000;

    @BeforeEach
    void forgetCounts() {
        Probes.reset();
        Spikes.reset();
    }

    @Test
    void scoringFindsTheSameSpikesOnFlinkAndOnTheStormTopology() throws Exception {
        long expected = spikesByLoop();
        assertTrue(expected > 10, "the input has spikes to find: " + expected);

        StreamExecutionEnvironment env = FlinkPipelines.localEnvironment(1);
        FlinkPipelines.scoring(env, new ReadingSource(READINGS));
        env.execute("scoring-test");
        assertEquals(READINGS, Probes.delivered(), "readings scored on Flink");
        assertEquals(expected, Spikes.count(), "spikes found on Flink");

        Probes.reset();
        Spikes.reset();
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_ACKER_EXECUTORS, 0);
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("scoring-test", conf, ScoringWorkloads.topology(1, READINGS));
            awaitValue(Probes::delivered, READINGS, "readings scored by the Storm topology");
            awaitValue(Spikes::count, expected, "spikes found by the Storm topology");
            KillOptions now = new KillOptions();
            now.set_wait_secs(0);
            cluster.killTopologyWithOpts("scoring-test", now);
        }
    }

    @Test
    void wordCountCountsTheWordsOfTheSameSentences() throws Exception {
        List<String> sentences = TextCorpus.lines();
        Random random = new Random(7);
        long words = 0;
        for (int i = 0; i < SENTENCES; i++) {
            for (String word : sentences.get(random.nextInt(sentences.size())).split(" ")) {
                words += word.isEmpty() ? 0 : 1;
            }
        }
        StreamExecutionEnvironment env = FlinkPipelines.localEnvironment(1);
        FlinkPipelines.wordCount(env, new SentenceSource(7L, SENTENCES));
        env.execute("wordcount-test");
        assertEquals(words, Probes.delivered());
    }

    private static long spikesByLoop() {
        Readings readings = new Readings(0);
        Map<String, MovingAverage> averages = new HashMap<>();
        long spikes = 0;
        for (int i = 0; i < READINGS; i++) {
            readings.next();
            double average = averages.computeIfAbsent(readings.sensor(), s -> new MovingAverage()).add(readings.value());
            spikes += SpikeRule.isSpike(readings.value(), average) ? 1 : 0;
        }
        return spikes;
    }

    /** Waits until {@code value} reaches {@code expected}, then checks it stays there (no more than expected arrive). */
    private static void awaitValue(LongSupplier value, long expected, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (value.getAsLong() < expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(expected, value.getAsLong(), what);
    }
}
