package io.microburst.it.durable;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * Emits the numbers 0 to count-1 as strings in field "value" (as the Kafka spout does), each anchored with its
 * number as message id; a failed number is emitted again. Acked numbers are collected under the spout's scope.
 */
public final class NumberSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;
    private static final Map<String, Set<Long>> ACKED = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> EMITTED = new ConcurrentHashMap<>();
    private static final Map<String, AtomicLong> FAILED = new ConcurrentHashMap<>();
    private final String scope;
    private final long count;
    private transient SpoutOutputCollector collector;
    private transient long next;
    private transient ArrayDeque<Long> failed;

    public NumberSpout(String scope, long count) {
        this.scope = scope;
        this.count = count;
    }

    public static Set<Long> acked(String scope) {
        return ACKED.computeIfAbsent(scope, s -> ConcurrentHashMap.newKeySet());
    }

    /** How many tuples (first emits and replays) the spout emitted under a scope. */
    public static long emitted(String scope) {
        return EMITTED.computeIfAbsent(scope, s -> new AtomicLong()).get();
    }

    /** How many fail calls the spout had under a scope. */
    public static long failed(String scope) {
        return FAILED.computeIfAbsent(scope, s -> new AtomicLong()).get();
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.collector = collector;
        this.failed = new ArrayDeque<>();
    }

    @Override
    public void nextTuple() {
        Long number = failed.poll();
        if (number == null && next < count) {
            number = next++;
        }
        if (number != null) {
            collector.emit(new Values(Long.toString(number)), number);
            EMITTED.computeIfAbsent(scope, s -> new AtomicLong()).incrementAndGet();
        }
    }

    @Override
    public void ack(Object msgId) {
        acked(scope).add((Long) msgId);
    }

    @Override
    public void fail(Object msgId) {
        failed.add((Long) msgId);
        FAILED.computeIfAbsent(scope, s -> new AtomicLong()).incrementAndGet();
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("value"));
    }
}
