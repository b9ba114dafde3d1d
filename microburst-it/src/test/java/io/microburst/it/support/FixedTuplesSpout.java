package io.microburst.it.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;

/**
 * A deterministic finite spout: emits a fixed list of tuples once, then nothing. With several tasks, tuple i is emitted by the task
 * whose index is i modulo the task count, so the multiset of emitted tuples is the same whatever the parallelism. Reliable mode
 * anchors each tuple with its position as message id and records {@link SpoutAck}s. Every emit is recorded as an {@link Emitted}.
 */
public class FixedTuplesSpout extends BaseRichSpout {
    private final String scope;
    private final LinkedHashMap<String, Fields> streams;
    private final ArrayList<Emission> emissions;
    private final boolean reliable;
    private transient SpoutOutputCollector collector;
    private transient TopologyContext context;
    private transient int next;

    public FixedTuplesSpout(String scope, Map<String, Fields> streams, List<Emission> emissions, boolean reliable) {
        this.scope = scope;
        this.streams = new LinkedHashMap<>(streams);
        this.emissions = new ArrayList<>(emissions);
        this.reliable = reliable;
    }

    /** Unreliable, default stream only. */
    public static FixedTuplesSpout of(String scope, Fields fields, List<List<Object>> tuples) {
        List<Emission> emissions = new ArrayList<>();
        for (List<Object> values : tuples) {
            emissions.add(new Emission("default", values));
        }
        return new FixedTuplesSpout(scope, Map.of("default", fields), emissions, false);
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.context = context;
        this.collector = collector;
        this.next = context.getThisTaskIndex();
    }

    @Override
    public void nextTuple() {
        if (next >= emissions.size()) {
            return;
        }
        Emission emission = emissions.get(next);
        Recorder.record(scope, new Emitted(context.getThisComponentId(), context.getThisTaskId(), emission.stream(), emission.values()));
        if (reliable) {
            collector.emit(emission.stream(), new ArrayList<>(emission.values()), next);
        } else {
            collector.emit(emission.stream(), new ArrayList<>(emission.values()));
        }
        next += context.getComponentTasks(context.getThisComponentId()).size();
    }

    @Override
    public void ack(Object msgId) {
        Recorder.record(scope, new SpoutAck(context.getThisComponentId(), context.getThisTaskId(), msgId, true));
    }

    @Override
    public void fail(Object msgId) {
        Recorder.record(scope, new SpoutAck(context.getThisComponentId(), context.getThisTaskId(), msgId, false));
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        for (Map.Entry<String, Fields> stream : streams.entrySet()) {
            declarer.declareStream(stream.getKey(), stream.getValue());
        }
    }
}
