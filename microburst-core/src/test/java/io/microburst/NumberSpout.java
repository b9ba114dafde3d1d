package io.microburst;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits 0, 1, 2... up to a count, once each and never replayed, in one field, with the number as message id; records
 * per run which ids were acked and which failed. State is kept per run, in static maps, so it survives instances.
 */
public class NumberSpout extends BaseRichSpout {
    private static final Map<String, Set<Integer>> ACKED = new ConcurrentHashMap<>();
    private static final Map<String, Set<Integer>> FAILED = new ConcurrentHashMap<>();
    private final String run;
    private final int count;
    private final String field;
    private transient SpoutOutputCollector collector;
    private transient int next;

    /** Emits 0 to {@code count - 1} in field {@code field}; {@link Integer#MAX_VALUE} for no end. */
    public NumberSpout(String run, int count, String field) {
        this.run = run;
        this.count = count;
        this.field = field;
    }

    public static Set<Integer> acked(String run) {
        return ACKED.computeIfAbsent(run, k -> ConcurrentHashMap.newKeySet());
    }

    public static Set<Integer> failed(String run) {
        return FAILED.computeIfAbsent(run, k -> ConcurrentHashMap.newKeySet());
    }

    /** Trees that ended, acked or failed. */
    public static int ended(String run) {
        return acked(run).size() + failed(run).size();
    }

    /** A fresh start for {@code run}, when a test runs again in the same JVM. */
    public static void forget(String run) {
        ACKED.remove(run);
        FAILED.remove(run);
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void nextTuple() {
        if (next < count) {
            collector.emit(new Values(next), next);
            next++;
        }
    }

    @Override
    public void ack(Object id) {
        acked(run).add((Integer) id);
    }

    @Override
    public void fail(Object id) {
        failed(run).add((Integer) id);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields(field));
    }
}
