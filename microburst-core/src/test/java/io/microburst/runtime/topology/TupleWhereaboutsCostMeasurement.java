package io.microburst.runtime.topology;

import io.microburst.MicroburstConfig;
import io.microburst.NumberSpout;
import io.microburst.ReplayingSpout;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Measures what a tuple-whereabouts snapshot costs, not a timed test (behind {@code -Dmicroburst.long=true}): with N
 * pending trees (max spout pending N, no timeout within the run) held by a bolt that never acks (every thread answers)
 * and queued at a bolt stalled in execute (its thread cannot answer: the snapshot waits its bound, then reads that
 * inbox through the queue's iterator). Writes the median and the slowest of 20 snapshots per case into
 * {@code target/tuple-whereabouts-cost.txt}.
 */
@EnabledIfSystemProperty(named = "microburst.long", matches = "true")
class TupleWhereaboutsCostMeasurement {
    static volatile CountDownLatch stall = new CountDownLatch(1);

    /** Never acks (holds every tuple), or with {@code stalls} waits in its first execute until released. */
    public static class Sink extends BaseRichBolt {
        private final boolean stalls;

        Sink(boolean stalls) {
            this.stalls = stalls;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        }

        @Override
        public void execute(Tuple input) {
            if (stalls) {
                try {
                    stall.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void snapshotCost() throws Exception {
        List<String> lines = new ArrayList<>();
        for (boolean stalls : new boolean[] {false, true}) {
            for (int n : new int[] {1_000, 10_000, 100_000}) {
                lines.add(measure(n, stalls));
                System.out.println(lines.get(lines.size() - 1));
            }
        }
        Files.write(Path.of("target/tuple-whereabouts-cost.txt"), lines);
    }

    private String measure(int n, boolean stalls) throws Exception {
        String run = "cost-" + n + "-" + stalls;
        NumberSpout.forget(run);
        stall = new CountDownLatch(1);
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, run);
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, n);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 600);
        conf.put(MicroburstConfig.EXECUTOR_QUEUE_SIZE, 2 * n);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new NumberSpout(run, Integer.MAX_VALUE, "n"));
        b.setBolt("sink", new Sink(stalls)).shuffleGrouping("spout");
        TopologyPlan plan = TopologyPlan.build(run, run + "-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer(run + "-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, getClass().getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                ReplayingSpout.await(n + " pending trees", 120, () -> pending(runtime) == n);
                long[] micros = new long[20];
                for (int i = 0; i < micros.length; i++) {
                    TupleWhereabouts.Snapshot s = TupleWhereabouts.snapshot(runtime.threadViews());
                    micros[i] = s.tookMicros();
                }
                Arrays.sort(micros);
                long[] pauses = new long[20];
                for (int i = 0; i < pauses.length; i++) {
                    pauses[i] = TupleWhereabouts.snapshot(runtime.threadViews()).longestPauseMicros();
                }
                Arrays.sort(pauses);
                return String.format("%s, %,d pending trees: snapshot median %.2f ms, slowest %.2f ms; longest executor "
                    + "pause median %.2f ms, slowest %.2f ms (20 snapshots each)",
                    stalls ? "queued at a stalled bolt (its thread busy)" : "held by a bolt that never acks", n,
                    micros[10] / 1000.0, micros[19] / 1000.0, pauses[10] / 1000.0, pauses[19] / 1000.0);
            } finally {
                stall.countDown();
                runtime.stopNow();
            }
        }
    }

    private static int pending(TopologyRuntime runtime) {
        try {
            TupleWhereabouts.Snapshot s = TupleWhereabouts.snapshot(runtime.threadViews());
            return s.groups().stream().mapToInt(TupleWhereabouts.Group::count).sum();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
