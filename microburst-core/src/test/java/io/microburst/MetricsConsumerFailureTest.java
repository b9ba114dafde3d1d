package io.microburst;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.metric.api.CountMetric;
import org.apache.storm.metric.api.IMetricsConsumer;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IErrorReporter;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichSpout;
import org.junit.jupiter.api.Test;

/**
 * A metrics consumer that throws is logged with its component and task, as Storm's metrics consumer bolt logs it:
 * the consumer keeps being called, so without the log its failure would go unseen (storm-loadgen's consumer fails
 * this way on both runtimes, and only Storm said so).
 */
class MetricsConsumerFailureTest {
    /** Refuses every delivery. */
    public static class Refusing implements IMetricsConsumer {
        @Override
        public void prepare(Map<String, Object> conf, Object arg, TopologyContext context, IErrorReporter errors) {
        }

        @Override
        public void handleDataPoints(TaskInfo taskInfo, Collection<DataPoint> dataPoints) {
            throw new IllegalStateException("this consumer refuses every data point");
        }

        @Override
        public void cleanup() {
        }
    }

    /** Registers a metric counted every second; emits nothing. */
    public static class MeteredSpout extends BaseRichSpout {
        private transient CountMetric polls;

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            polls = context.registerMetric("polls", new CountMetric(), 1);
        }

        @Override
        public void nextTuple() {
            polls.incr();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void aThrowingMetricsConsumerIsLoggedWithItsComponentAndTask() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("metered", new MeteredSpout());
        Config conf = new Config();
        // by binary name: registerMetricsConsumer(Class) writes the canonical one, which Class.forName cannot load
        conf.put(Config.TOPOLOGY_METRICS_CONSUMER_REGISTER,
            List.of(Map.of("class", Refusing.class.getName(), "parallelism.hint", 1)));
        String component = "__metrics_" + Refusing.class.getName();
        try (LogCapture warnings = new LogCapture("io.microburst.runtime.topology.Supervisor", true);
             MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology("refused-metrics", conf, b.createTopology());
            ReplayingSpout.await("a warning naming the consumer", 60, () -> warnings.messages.stream()
                .anyMatch(m -> m.contains(component) && m.contains("refuses every data point")));
            assertFalse(warnings.messages.stream().anyMatch(m -> m.contains("(task -1)")), warnings.messages::toString);
        }
    }
}
