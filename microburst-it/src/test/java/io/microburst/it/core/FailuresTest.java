package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.MicroburstConfig;
import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.LifecycleEvent;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Received;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An exception from user code is reported in getTopologyInfo errors, the task is replaced by a fresh instance after a backoff, and
 * the topology keeps running; a task failing too often stops its topology. Microburst-specific: Storm's LocalCluster answers a
 * failing executor by ending the worker (and in local mode possibly the JVM).
 */
class FailuresTest extends ClusterTestSupport {

    @BeforeEach
    void onlyOnMicroburst() {
        assumeMicroburst("task failure isolation and restart");
    }

    @Test
    void exceptionInExecuteIsReportedAndTheTaskReplaced() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1);
        builder.setBolt("flaky", new ThrowingBolt(scope, "execute", 1), 1).shuffleGrouping("spout");
        String name = submit("executefails", restartingConf(), builder.createTopology());

        Await.until("a second prepare (the replacement)", () -> prepares("flaky").size() == 2);
        List<LifecycleEvent> prepares = prepares("flaky");
        assertEquals(prepares.get(0).taskId(), prepares.get(1).taskId(), "the same task is restarted");
        assertNotEquals(prepares.get(0).instanceId(), prepares.get(1).instanceId(), "with a fresh instance");
        int receivedAtFailure = receivedBy("flaky");
        Await.until("tuples after the restart", () -> receivedBy("flaky") > receivedAtFailure + 3);
        assertReportedError(name, "flaky", "boom in execute");
        assertEquals("ACTIVE", cluster.getTopologySummaryByName(name).get_status());
    }

    @Test
    void exceptionInPrepareIsReportedAndPrepareRetried() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 5), 1);
        builder.setBolt("flaky", new ThrowingBolt(scope, "prepare", 1), 1).shuffleGrouping("spout");
        String name = submit("preparefails", restartingConf(), builder.createTopology());

        Await.until("tuples at the bolt once its second prepare succeeded", () -> receivedBy("flaky") >= 3);
        assertEquals(2, Recorder.all(scope, String.class).stream().filter(s -> s.equals("flaky:prepare-attempt")).count());
        assertReportedError(name, "flaky", "boom in prepare");
    }

    @Test
    void exceptionsInOpenAndNextTupleAreReportedAndTheSpoutReplaced() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("opener", new ThrowingSpout(scope, "open", 1), 1);
        builder.setSpout("emitter", new ThrowingSpout(scope, "nextTuple", 5), 1);
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("opener").shuffleGrouping("emitter");
        String name = submit("spoutfails", restartingConf(), builder.createTopology());

        Await.until("tuples from both spouts after their failures", () -> fromSpout("opener") >= 3 && fromSpout("emitter") >= 8);
        assertReportedError(name, "opener", "boom in open");
        assertReportedError(name, "emitter", "boom in nextTuple");
    }

    @Test
    void aTaskFailingTooOftenStopsItsTopologyOnly() throws Exception {
        TopologyBuilder healthy = new TopologyBuilder();
        healthy.setSpout("spout", new PacedSpout(scope, 5), 1);
        healthy.setBolt("healthySink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        submit("healthy", Topologies.baseConf(), healthy.createTopology());

        TopologyBuilder failing = new TopologyBuilder();
        failing.setSpout("spout", new PacedSpout(scope, 5), 1);
        failing.setBolt("alwaysFails", new ThrowingBolt(scope, "execute", Integer.MAX_VALUE), 1).shuffleGrouping("spout");
        Config conf = restartingConf();
        conf.put(MicroburstConfig.TASK_FAILURE_LIMIT, 3);
        conf.put(MicroburstConfig.TASK_FAILURE_WINDOW_SECS, 60);
        String name = submit("toofrequent", conf, failing.createTopology());

        Await.until("the failing topology to stop", () -> stopped(name), Await.DEFAULT_LIMIT, () -> describe(name));
        int attempts = prepares("alwaysFails").size();
        assertTrue(attempts >= 3, "the task must be restarted up to the limit; prepared " + attempts + " times");
        Await.never("more restarts after the stop", () -> prepares("alwaysFails").size() > attempts, Duration.ofSeconds(1));
        int healthyBefore = receivedBy("healthySink");
        Await.until("the other topology to keep running", () -> receivedBy("healthySink") > healthyBefore + 5);
    }

    private Config restartingConf() {
        Config conf = Topologies.baseConf();
        conf.put(MicroburstConfig.TASK_RESTART_BACKOFF_MS, 50);
        conf.put(MicroburstConfig.TASK_FAILURE_LIMIT, 100);
        conf.put(MicroburstConfig.TASK_FAILURE_WINDOW_SECS, 60);
        return conf;
    }

    /** Stopped: no longer listed, or listed in a status other than ACTIVE with the failure among its errors. */
    private boolean stopped(String name) {
        try {
            for (TopologySummary summary : cluster.getTopologySummaries()) {
                if (summary.get_name().equals(name)) {
                    return !summary.get_status().equals("ACTIVE") && !summary.get_status().equals("INACTIVE");
                }
            }
            return true;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private String describe(String name) {
        try {
            return cluster.getTopologySummaries().stream().filter(s -> s.get_name().equals(name)).map(TopologySummary::toString)
                .collect(Collectors.joining());
        } catch (Exception e) {
            return e.toString();
        }
    }

    private void assertReportedError(String name, String component, String text) throws Exception {
        Await.until("an error of " + component + " in getTopologyInfo", () -> !errors(name, component).isEmpty());
        ErrorInfo error = errors(name, component).get(0);
        assertTrue(error.get_error().contains(text), "the error names the exception: " + error.get_error());
        assertTrue(error.get_error().contains("Throwing"), "the error carries a stack trace: " + error.get_error());
        long nowSecs = System.currentTimeMillis() / 1000;
        assertTrue(Math.abs(nowSecs - error.get_error_time_secs()) < 120, "error time " + error.get_error_time_secs() + " vs " + nowSecs);
    }

    private List<ErrorInfo> errors(String name, String component) {
        try {
            TopologyInfo info = cluster.getTopologyInfoByName(name);
            Map<String, List<ErrorInfo>> errors = info.get_errors();
            return errors == null || errors.get(component) == null ? List.of() : errors.get(component);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private List<LifecycleEvent> prepares(String component) {
        return recorded(LifecycleEvent.class).stream().filter(e -> e.component().equals(component) && e.callback().equals("prepare"))
            .collect(Collectors.toList());
    }

    private int receivedBy(String component) {
        return (int) recorded(Received.class).stream().filter(r -> r.component().equals(component)).count();
    }

    private int fromSpout(String spout) {
        return (int) recorded(Received.class).stream().filter(r -> r.sourceComponent().equals(spout)).count();
    }

    /**
     * Throws from prepare (on the first {@code failures} attempts of the task) or from execute (the 5th tuple of each instance, for
     * the first {@code failures} instances). Counts attempts in the recorder since each restart brings a fresh instance.
     */
    static final class ThrowingBolt extends CollectingBolt {
        private final String where;
        private final int failures;
        private transient int executed;

        ThrowingBolt(String scope, String where, int failures) {
            super(scope);
            this.where = where;
            this.failures = failures;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            String attempt = context.getThisComponentId() + ":prepare-attempt";
            Recorder.record(scope(), attempt);
            long attempts = Recorder.all(scope(), String.class).stream().filter(attempt::equals).count();
            if (where.equals("prepare") && attempts <= failures) {
                throw new IllegalStateException("boom in prepare");
            }
            super.prepare(topoConf, context, collector);
        }

        @Override
        public void execute(Tuple input) {
            super.execute(input);
            if (where.equals("execute") && ++executed == 5 && previousFailures() < failures) {
                Recorder.record(scope(), "execute-failure");
                throw new IllegalStateException("boom in execute");
            }
        }

        private long previousFailures() {
            return Recorder.all(scope(), String.class).stream().filter("execute-failure"::equals).count();
        }
    }

    /** Throws from open or from the n-th nextTuple, the first {@code failures} times. */
    static final class ThrowingSpout extends PacedSpout {
        private final String scope;
        private final String where;
        private final int failures;
        private transient int calls;
        private transient String component;

        ThrowingSpout(String scope, String where, int failures) {
            super(scope, 5);
            this.scope = scope;
            this.where = where;
            this.failures = failures;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            component = context.getThisComponentId();
            if (where.equals("open") && previousFailures() < failures) {
                Recorder.record(scope, component + ":failure");
                throw new IllegalStateException("boom in open");
            }
            super.open(conf, context, collector);
        }

        @Override
        public void nextTuple() {
            if (where.equals("nextTuple") && ++calls == 5 && previousFailures() < failures) {
                Recorder.record(scope, component + ":failure");
                throw new IllegalStateException("boom in nextTuple");
            }
            super.nextTuple();
        }

        private long previousFailures() {
            return Recorder.all(scope, String.class).stream().filter((component + ":failure")::equals).count();
        }
    }
}
