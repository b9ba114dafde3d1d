package io.microburst.bench.topology.email;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;
import org.apache.storm.utils.TupleUtils;

/**
 * The last per-email component: keeps this task's metrics, counts each email, and on every tick (each 4 s) sends its
 * emails-per-second rate to the global aggregate. Task thread only.
 */
public final class MetricsBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    /** Seconds between reports to the global aggregate, as in the thesis' Enron topology. */
    public static final int REPORT_SECS = 4;

    private transient OutputCollector collector;
    private transient EmailMetrics metrics;
    private transient TaskCounter received;
    private transient int taskId;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.metrics = new EmailMetrics(System.nanoTime());
        this.received = Probes.newTaskCounter();
        this.taskId = context.getThisTaskId();
    }

    @Override
    public void execute(Tuple input) {
        if (TupleUtils.isTick(input)) {
            collector.emit(new Values(taskId, metrics.takeRate(System.nanoTime())));
        } else {
            metrics.add(EmailFields.fromTuple(input));
            received.increment();
        }
        collector.ack(input);
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        return Map.of(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, REPORT_SECS);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("task", "rate"));
    }
}
