package io.microburst.bench.topology;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.Map;
import org.HdrHistogram.SingleWriterRecorder;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;

/** The chain's sink: records now minus the source's stamp (field 2, end-to-end latency) and counts. Task thread only. */
public final class StageSinkBolt extends BaseBasicBolt {
    private static final long serialVersionUID = 1L;
    private transient SingleWriterRecorder latency;
    private transient TaskCounter received;

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context) {
        latency = Probes.newLatencyRecorder();
        received = Probes.newTaskCounter();
    }

    @Override
    public void execute(Tuple input, BasicOutputCollector collector) {
        Probes.record(latency, System.nanoTime() - input.getLong(2));
        received.increment();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        // a sink
    }
}
