package io.microburst.it.reliability;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.apache.storm.hooks.BaseTaskHook;
import org.apache.storm.hooks.info.BoltAckInfo;
import org.apache.storm.hooks.info.BoltExecuteInfo;
import org.apache.storm.hooks.info.EmitInfo;
import org.apache.storm.hooks.info.SpoutAckInfo;
import org.apache.storm.hooks.info.SpoutFailInfo;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** The spout, bolts and hook of the chaos soak (see {@link Chaos} for the rates and the shared state). */
public final class ChaosComponents {
    static final Fields FIELDS = new Fields("id", "key", "hops");
    static final String LOOP = "loop";

    private ChaosComponents() {
    }

    /**
     * Emits each id of its run with itself as message id, replays an id when its tree fails, and, as a spout over a
     * replayable source that restarts from its last committed offset, a fresh instance re-emits every id not yet
     * acked. Its callbacks throw at the configured rates (after recording what happened).
     */
    public static class Spout extends BaseRichSpout {
        private final String run;
        private transient SpoutOutputCollector collector;
        private transient ArrayDeque<Long> replay;
        private transient Random random;

        public Spout(String run) {
            this.run = run;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            this.collector = collector;
            this.random = Chaos.random();
            this.replay = new ArrayDeque<>(Chaos.run(run).pending);
            Chaos.maybeThrowAtStart(random, "spout open");
        }

        @Override
        public void nextTuple() {
            Chaos.Run r = Chaos.run(run);
            Long id = replay.poll();
            if (id == null) {
                long fresh = r.newId();
                if (fresh < 0) {
                    return;
                }
                id = fresh;
            }
            r.emits.increment();
            collector.emit(new Values(id, (int) (id % 16), 0), id);
            Chaos.maybeThrow(random, "spout nextTuple");
        }

        @Override
        public void ack(Object msgId) {
            Chaos.run(run).acked((Long) msgId);
            Chaos.maybeThrow(random, "spout ack");
        }

        @Override
        public void fail(Object msgId) {
            Chaos.run(run).fails.increment();
            replay.add((Long) msgId);
            Chaos.maybeThrow(random, "spout fail");
        }

        @Override
        public void close() {
            Chaos.maybeThrow(random, "spout close");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(FIELDS);
        }
    }

    /**
     * Emits {@code children} anchored copies of each input on the default stream and, as a loop, one more on its own
     * "loop" stream until the tuple has gone round twice; then acks. At the configured rates it throws an exception
     * or an Error, fails the tuple, never acks it, acks it twice or executes slowly.
     */
    public static class Bolt extends BaseRichBolt {
        private final int children;
        private final boolean loop;
        private transient OutputCollector collector;
        private transient Random random;

        public Bolt(int children, boolean loop) {
            this.children = children;
            this.loop = loop;
        }

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            this.random = Chaos.random();
            Chaos.maybeThrowAtStart(random, "bolt prepare");
        }

        @Override
        public void execute(Tuple input) {
            Chaos.maybeThrow(random, "bolt execute");
            double r = random.nextDouble();
            if (r < Chaos.failRate) {
                Chaos.count("bolt fail");
                collector.fail(input);
                return;
            }
            r -= Chaos.failRate;
            if (r < Chaos.dropRate) {
                Chaos.count("bolt ack dropped");
                return;
            }
            r -= Chaos.dropRate;
            if (r < Chaos.slowRate) {
                Chaos.count("bolt slow execute");
                LockSupport.parkNanos(1_000_000L + random.nextInt(10_000_000));
            }
            int hops = input.getInteger(2);
            Values out = new Values(input.getValue(0), input.getValue(1), hops + 1);
            for (int i = 0; i < children; i++) {
                collector.emit(input, out);
            }
            if (loop && hops < 2) {
                collector.emit(LOOP, input, out);
            }
            collector.ack(input);
            if (random.nextDouble() < Chaos.doubleAckRate) {
                Chaos.count("bolt double ack");
                collector.ack(input);
            }
        }

        @Override
        public void cleanup() {
            Chaos.maybeThrow(random, "bolt cleanup");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(FIELDS);
            declarer.declareStream(LOOP, FIELDS);
        }
    }

    /** A task hook that throws, at the configured rates, from the callbacks every tuple passes through. */
    public static class Hook extends BaseTaskHook {
        private transient Random random;

        @Override
        public void prepare(Map<String, Object> conf, TopologyContext context) {
            random = Chaos.random();
        }

        @Override
        public void emit(EmitInfo info) {
            Chaos.maybeThrow(random, "hook emit");
        }

        @Override
        public void spoutAck(SpoutAckInfo info) {
            Chaos.maybeThrow(random, "hook spoutAck");
        }

        @Override
        public void spoutFail(SpoutFailInfo info) {
            Chaos.maybeThrow(random, "hook spoutFail");
        }

        @Override
        public void boltAck(BoltAckInfo info) {
            Chaos.maybeThrow(random, "hook boltAck");
        }

        @Override
        public void boltExecute(BoltExecuteInfo info) {
            Chaos.maybeThrow(random, "hook boltExecute");
        }
    }

    /** Storm's multi-lang protocol: a Python subprocess relays each tuple, anchored, and acks it (chaos_relay.py). */
    public static class Shell extends ShellBolt implements IRichBolt {
        public Shell() {
            super("python3", "chaos_relay.py");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(FIELDS);
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }
    }
}
