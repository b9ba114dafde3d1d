package io.microburst.bench.topology;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * A source held at a steady rate (or as fast as it is called, with rate 0): each tuple is a key of {@link #KEYS}, a value
 * and the {@link System#nanoTime()} just before its emit; every {@link #CONTROL_EVERY}th tuple is followed by a key on
 * the {@link #CONTROL} stream (as a Linear Road source's accident notices), which some stages subscribe to besides their
 * data input. Emits nothing when nothing is owed, so the runtime's spout wait
 * applies as it would for a user's rate-limited spout. No message ids. Task thread only.
 */
public final class RateSpout extends BaseRichSpout {
    /** Distinct keys, so fields groupings spread like a real key space. */
    public static final int KEYS = 1024;
    /** The control stream: a key whose state the subscribed stages reset. */
    public static final String CONTROL = "control";
    /** A control tuple after this many data tuples. */
    static final int CONTROL_EVERY = 1024;
    /** Most tuples one nextTuple emits. */
    static final int MAX_PER_CALL = 100;
    private static final long serialVersionUID = 1L;
    private final long perSecond;
    private transient SpoutOutputCollector collector;
    private transient RatePacer pacer;
    private transient long sequence;

    /** @param perSecond tuples a second; 0 for as fast as the runtime calls it */
    public RateSpout(long perSecond) {
        this.perSecond = perSecond;
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.pacer = perSecond > 0 ? new RatePacer(perSecond, MAX_PER_CALL) : null;
    }

    @Override
    public void nextTuple() {
        int n = pacer == null ? 1 : pacer.due(System.nanoTime());
        for (int i = 0; i < n; i++) {
            long s = sequence++;
            int key = (int) (s * 0x9E3779B9L >>> 22) & (KEYS - 1);
            collector.emit(new Values(key, s, System.nanoTime()));
            if (s % CONTROL_EVERY == CONTROL_EVERY - 1) {
                collector.emit(CONTROL, new Values(key));
            }
        }
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("key", "value", "stamp"));
        declarer.declareStream(CONTROL, new Fields("key"));
    }
}
