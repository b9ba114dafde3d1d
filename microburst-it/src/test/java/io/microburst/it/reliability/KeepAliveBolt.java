package io.microburst.it.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.tuple.Tuple;

/**
 * Holds every tuple. On each tick (once a second) it calls resetTimeout on the tuples with even sequence numbers,
 * and acks them once held for holdMillis. Odd ones it holds without resetting, so they must time out: the control
 * that shows timeouts are really on.
 */
public final class KeepAliveBolt extends RecordingBolt {
    private final long holdMillis;
    private transient Map<Tuple, Long> heldSince;

    public KeepAliveBolt(String runId, long holdMillis) {
        super(runId);
        this.holdMillis = holdMillis;
    }

    @Override
    protected void prepared(org.apache.storm.task.TopologyContext context) {
        heldSince = new HashMap<>();
    }

    @Override
    protected void process(Tuple input) {
        heldSince.put(input, System.nanoTime());
    }

    @Override
    protected void tick() {
        long now = System.nanoTime();
        List<Tuple> done = new ArrayList<>();
        for (Map.Entry<Tuple, Long> held : heldSince.entrySet()) {
            Tuple tuple = held.getKey();
            if (seqOf(tuple) % 2 != 0) {
                continue;
            }
            if ((now - held.getValue()) / 1_000_000 >= holdMillis) {
                done.add(tuple);
            } else {
                collector.resetTimeout(tuple);
                run.increment("resets");
            }
        }
        for (Tuple tuple : done) {
            heldSince.remove(tuple);
            collector.ack(tuple);
        }
    }

    @Override
    public Map<String, Object> getComponentConfiguration() {
        Map<String, Object> conf = new HashMap<>();
        conf.put(Config.TOPOLOGY_TICK_TUPLE_FREQ_SECS, 1);
        return conf;
    }
}
