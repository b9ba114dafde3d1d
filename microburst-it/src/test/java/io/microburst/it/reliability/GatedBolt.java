package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.tuple.Tuple;

/**
 * Holds every tuple until the test increments the run's "release" counter; on the next tick (each second) it acks
 * the held tuples with odd sequence numbers and fails the even ones.
 */
public final class GatedBolt extends RecordingBolt {
    private transient List<Tuple> held;

    public GatedBolt(String runId) {
        super(runId);
    }

    @Override
    protected void prepared(org.apache.storm.task.TopologyContext context) {
        held = new ArrayList<>();
    }

    @Override
    protected void process(Tuple input) {
        held.add(input);
    }

    @Override
    protected void tick() {
        if (run.count("release") == 0) {
            return;
        }
        for (Tuple tuple : held) {
            if (seqOf(tuple) % 2 != 0) {
                collector.ack(tuple);
            } else {
                collector.fail(tuple);
            }
        }
        held.clear();
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        return conf;
    }
}
