package io.microburst;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits the ids 0 to count - 1, each as its own message id, and replays an id when its tree fails, as a spout over a
 * replayable source does. A fresh instance (after a failure) starts again from every id not yet acked, as a spout
 * that re-reads from its last committed offset. State is kept per run, in static maps, so it survives instances.
 */
public class ReplayingSpout extends BaseRichSpout {
    public static final Map<String, Set<Integer>> ACKED = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> FAILS = new ConcurrentHashMap<>();
    private final String run;
    private final int count;
    private transient SpoutOutputCollector collector;
    private transient Queue<Integer> toEmit;

    public ReplayingSpout(String run, int count) {
        this.run = run;
        this.count = count;
    }

    public static Set<Integer> acked(String run) {
        return ACKED.computeIfAbsent(run, k -> ConcurrentHashMap.newKeySet());
    }

    public static AtomicInteger fails(String run) {
        return FAILS.computeIfAbsent(run, k -> new AtomicInteger());
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.toEmit = new ArrayDeque<>();
        Set<Integer> done = acked(run);
        for (int i = 0; i < count; i++) {
            if (!done.contains(i)) {
                toEmit.add(i);
            }
        }
    }

    @Override
    public void nextTuple() {
        Integer id = toEmit.poll();
        if (id != null) {
            collector.emit(new Values(id), id);
        }
    }

    @Override
    public void ack(Object id) {
        acked(run).add((Integer) id);
    }

    @Override
    public void fail(Object id) {
        fails(run).incrementAndGet();
        toEmit.add((Integer) id);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("id"));
    }

    /** Waits up to {@code seconds} for the condition, polling; fails with {@code what} if it never holds. */
    public static void await(String what, int seconds, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + seconds + " s waiting for " + what);
            }
            Thread.sleep(5);
        }
    }
}
