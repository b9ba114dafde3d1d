package io.microburst.bench.topology;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.Map;
import org.HdrHistogram.SingleWriterRecorder;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;

/** Records now minus the tuple's stamp (end-to-end latency) in its own recorder; counts and acks. Task thread only. */
public final class LatencyBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;
    private transient OutputCollector collector;
    private transient SingleWriterRecorder latency;
    private transient TaskCounter received;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
        this.latency = Probes.newLatencyRecorder();
        this.received = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input) {
        Probes.record(latency, System.nanoTime() - input.getLong(0));
        received.increment();
        collector.ack(input);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // a sink
    }
}
