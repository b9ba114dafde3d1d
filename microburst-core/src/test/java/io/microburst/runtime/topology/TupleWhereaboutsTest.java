package io.microburst.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.NumberSpout;
import io.microburst.ReplayingSpout;
import io.microburst.plan.TopologyPlan;
import io.microburst.runtime.clock.SharedTimer;
import io.microburst.runtime.task.TreeLog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.Utils;
import org.junit.jupiter.api.Test;

/**
 * Where are my tuples, on an acked topology with a bolt that fails some tuples, one that crashes on some, and one that
 * stalls until the test lets it go: the stalled trees are shown held at the stalling task, and the log names each
 * failed or timed-out tree's reason and last holder (failed by the failing bolt, crashed with the crashing task, timed
 * out while queued or executing at the stalling one).
 */
class TupleWhereaboutsTest {
    static volatile CountDownLatch release = new CountDownLatch(1);

    /** Fails n % 5 == 1, sends n % 5 == 2 to the crasher, the rest to the staller; acks what it sends on. */
    public static class Failer extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            int n = input.getInteger(0);
            if (n % 5 == 1) {
                collector.fail(input);
                return;
            }
            collector.emit(n % 5 == 2 ? "crash" : "stall", input, new Values(n));
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declareStream("crash", new Fields("n"));
            declarer.declareStream("stall", new Fields("n"));
        }
    }

    /** Throws on n % 10 == 2 (its instance is replaced), acks the others. */
    public static class Crasher extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            if (input.getInteger(0) % 10 == 2) {
                throw new IllegalStateException("crasher fails on purpose");
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    /** Blocks in its first execute until the test releases it; acks everything. */
    public static class Staller extends BaseRichBolt {
        private transient OutputCollector collector;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
        }

        @Override
        public void execute(Tuple input) {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void showsWhereTreesArePendingAndWhyTheyFailed() throws Exception {
        String run = "whereabouts";
        NumberSpout.forget(run);
        release = new CountDownLatch(1);
        Map<String, Object> defaults = Utils.readStormConfig();
        Map<String, Object> conf = new HashMap<>(defaults);
        conf.put(Config.TOPOLOGY_NAME, run);
        conf.put(MicroburstConfig.FUSION, false);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 20);
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 1);
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new NumberSpout(run, Integer.MAX_VALUE, "n"));
        b.setBolt("failer", new Failer()).shuffleGrouping("spout");
        b.setBolt("crasher", new Crasher()).shuffleGrouping("failer", "crash");
        b.setBolt("staller", new Staller()).shuffleGrouping("failer", "stall");
        TopologyPlan plan = TopologyPlan.build(run, run + "-1", conf, b.createTopology(), defaults);
        try (SharedTimer timer = new SharedTimer(run + "-timer")) {
            TopologyRuntime runtime = new TopologyRuntime(plan, getClass().getClassLoader(), timer, r -> { });
            try {
                runtime.start(true);
                String failer = "failer:" + plan.componentToSortedTasks().get("failer").get(0);
                String crasher = "crasher:" + plan.componentToSortedTasks().get("crasher").get(0);
                String staller = "staller:" + plan.componentToSortedTasks().get("staller").get(0);
                AtomicReference<TupleWhereabouts.Snapshot> last = new AtomicReference<>();

                ReplayingSpout.await("pending trees held at " + staller + " (last: " + last + ")", 30, () -> {
                    TupleWhereabouts.Snapshot s = snapshot(runtime, last);
                    return s.groups().stream().anyMatch(g -> staller.equals(g.task()) && g.count() > 1
                        && g.sample().stream().allMatch(t -> t.spout().startsWith("spout:")));
                });
                TupleWhereabouts.Group held = last.get().groups().stream().filter(g -> staller.equals(g.task()))
                    .findFirst().orElseThrow();
                assertTrue(held.states().keySet().stream().allMatch(s -> s.equals("queued") || s.equals("executing")),
                    "the stalled trees wait for or are executed by the staller: " + held);

                Pattern timedOut = Pattern.compile("timed out while (queued|executing) at " + staller);
                ReplayingSpout.await("failed, crashed and timed-out trees in the log (last: " + last + ")", 30, () -> {
                    List<TreeLog.Entry> recent = snapshot(runtime, last).recent();
                    return has(recent, "failed by " + failer) && has(recent, "crashed: its task " + crasher + " failed")
                        && recent.stream().anyMatch(e -> timedOut.matcher(e.reason()).matches());
                });
                for (TreeLog.Entry e : last.get().recent()) {
                    int n = Integer.parseInt(e.messageId());
                    assertEquals("spout", e.spoutComponent(), e.toString());
                    if (e.reason().startsWith("failed by")) {
                        assertEquals(1, n % 5, "only n % 5 == 1 is failed by the bolt: " + e);
                        assertEquals(failer, e.lastHolder());
                    } else if (e.reason().startsWith("crashed")) {
                        assertEquals(2, n % 10, "only n % 10 == 2 crashes its task: " + e);
                        assertEquals(crasher, e.lastHolder());
                    } else if (timedOut.matcher(e.reason()).matches()) {
                        assertTrue(n % 5 != 1 && n % 5 != 2, "only trees sent to the staller stall: " + e);
                        assertEquals(staller, e.lastHolder());
                    }
                }
            } finally {
                release.countDown();
                runtime.stopNow();
            }
        }
    }

    private static TupleWhereabouts.Snapshot snapshot(TopologyRuntime runtime,
                                                      AtomicReference<TupleWhereabouts.Snapshot> last) {
        try {
            TupleWhereabouts.Snapshot s = TupleWhereabouts.snapshot(runtime.threadViews());
            last.set(s);
            return s;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static boolean has(List<TreeLog.Entry> recent, String reason) {
        return recent.stream().anyMatch(e -> e.reason().equals(reason));
    }
}
