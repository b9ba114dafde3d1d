package io.microburst.bench.topology;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.probe.TaskCounter;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.SingleWriterRecorder;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;

/**
 * Emits the same one-field tuple on every call, as fast as the runtime asks.
 *
 * <p>Acked mode: each tuple carries its emit time ({@link System#nanoTime()}) as message id, and {@link #ack} records the
 * complete latency (emit to ack). Counting mode: the spout is the last component and counts its own emits. Both run on the
 * spout's task thread only.
 */
public final class ConstSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    /** The payload every tuple carries; immutable, so sharing one list between emits is safe. */
    static final List<Object> PAYLOAD = List.of("some data");

    private final boolean acked;
    private final boolean countEmits;
    private transient SpoutOutputCollector collector;
    private transient TaskCounter emitted;
    private transient SingleWriterRecorder completeLatency;

    /**
     * @param acked emit with a message id and record complete latency in {@link #ack}
     * @param countEmits count emits as the last component (for a spout-only topology)
     */
    public ConstSpout(boolean acked, boolean countEmits) {
        this.acked = acked;
        this.countEmits = countEmits;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        if (countEmits) {
            emitted = Probes.newTaskCounter();
        }
        if (acked) {
            completeLatency = Probes.newLatencyRecorder();
        }
    }

    @Override
    public void nextTuple() {
        if (acked) {
            collector.emit(PAYLOAD, System.nanoTime());
        } else {
            collector.emit(PAYLOAD);
        }
        if (emitted != null) {
            emitted.increment();
        }
    }

    @Override
    public void ack(Object msgId) {
        if (completeLatency != null) {
            Probes.record(completeLatency, System.nanoTime() - (Long) msgId);
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("value"));
    }
}
