package io.microburst.cluster;

import io.microburst.collector.ForwardingOutputCollector;
import io.microburst.collector.ForwardingSpoutOutputCollector;
import io.microburst.reliability.TrackedMessageId;
import io.microburst.reliability.TupleTree;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.storm.Thrift;
import org.apache.storm.generated.Bolt;
import org.apache.storm.generated.ComponentObject;
import org.apache.storm.generated.SpoutSpec;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.spout.ISpoutOutputCollector;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.IRichSpout;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.RegisteredGlobalState;
import org.apache.storm.utils.Utils;

/**
 * A tracked cluster's counters, as storm-server's {@code TrackedTopology.trackedWait} reads them: under the cluster's
 * tracked id, {@code RegisteredGlobalState} holds "spout-emitted" and "processed" (counted by storm-client's
 * {@code SpoutTracker} and {@code BoltTracker}, which {@code TrackedTopology} wraps around each component) and
 * "transferred". Storm counts "transferred" in its executors' transfer function, and an acker's ack or fail to a spout
 * is one transfer, sent when the tuple tree completes; here each component's collector is wrapped at submit to count
 * what it sends: one per receiving task, and one per tuple tree that an ack or fail of a bolt (or a spout emit that
 * reaches no task) completes: the ack or fail the spout will get, which its tracker counts as processed. So, as in
 * Storm, transferred equals processed exactly when every tuple sent was executed and the ack or fail of every
 * completed tree was delivered; a tree still pending (a bolt holding its tuple) leaves them equal.
 *
 * <p>While an emit, ack or fail is under way its count is held up by {@link #IN_EMIT}, so that receivers executing
 * inside the emit (a fused edge), or a spout getting the ack of a tree just completed, never make the two counters
 * equal before the sender's own count is in.
 *
 * <p>Threading: the counters are atomic; any thread.
 */
public final class Tracking implements AutoCloseable {
    static final String SPOUT_EMITTED = "spout-emitted";
    static final String TRANSFERRED = "transferred";
    static final String PROCESSED = "processed";
    private static final int IN_EMIT = 1 << 20;
    /**
     * Per tracked id, the trees whose ack or fail to the spout is counted already (two bolts acking the last tuples
     * of a tree at once both see it complete). Weak: a tree the spout is done with goes.
     */
    private static final Map<String, Set<TupleTree>> COUNTED_TREES = new ConcurrentHashMap<>();
    private final String id;

    private Tracking(String id) {
        this.id = id;
    }

    /** Registers fresh counters under a new id. */
    public static Tracking start() {
        return start("microburst-tracked-" + Utils.uuid());
    }

    /** As {@link #start(String)}, or null when {@code id} is null (an untracked cluster). */
    public static Tracking startIfTracked(String id) {
        return id == null ? null : start(id);
    }

    /** Closes {@code tracking} unless null. */
    public static void closeIfAny(Tracking tracking) {
        if (tracking != null) {
            tracking.close();
        }
    }

    /** Registers fresh counters under {@code id} (replacing any kept under it). */
    public static Tracking start(String id) {
        Tracking tracking = new Tracking(id);
        Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();
        counters.put(SPOUT_EMITTED, new AtomicInteger());
        counters.put(TRANSFERRED, new AtomicInteger());
        counters.put(PROCESSED, new AtomicInteger());
        RegisteredGlobalState.setState(tracking.id, counters);
        COUNTED_TREES.put(id, Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>())));
        return tracking;
    }

    public String id() {
        return id;
    }

    /** A copy of {@code topology} whose Java components count what their collectors send. */
    public StormTopology instrument(StormTopology topology) {
        StormTopology copy = topology.deepCopy();
        for (Bolt bolt : copy.get_bolts().values()) {
            ComponentObject object = bolt.get_bolt_object();
            if (object.is_set_serialized_java()) {
                IRichBolt delegate = (IRichBolt) Thrift.deserializeComponentObject(object);
                bolt.set_bolt_object(Thrift.serializeComponentObject(new CountingBolt(delegate, id)));
            }
        }
        for (SpoutSpec spout : copy.get_spouts().values()) {
            ComponentObject object = spout.get_spout_object();
            if (object.is_set_serialized_java()) {
                IRichSpout delegate = (IRichSpout) Thrift.deserializeComponentObject(object);
                spout.set_spout_object(Thrift.serializeComponentObject(new CountingSpout(delegate, id)));
            }
        }
        return copy;
    }

    @Override
    public void close() {
        RegisteredGlobalState.clearState(id);
        COUNTED_TREES.remove(id);
    }

    private static Set<TupleTree> countedTrees(String id) {
        Set<TupleTree> counted = COUNTED_TREES.get(id);
        if (counted == null) {
            throw new IllegalStateException("The tracked cluster '" + id + "' is closed");
        }
        return counted;
    }

    @SuppressWarnings("unchecked")
    static AtomicInteger transferred(String id) {
        Object state = RegisteredGlobalState.getState(id);
        if (state == null) {
            throw new IllegalStateException("The tracked cluster '" + id + "' is closed");
        }
        return ((Map<String, AtomicInteger>) state).get(TRANSFERRED);
    }

    /** A bolt whose collector counts the tasks each emit reaches. */
    static final class CountingBolt implements IRichBolt {
        private static final long serialVersionUID = 1L;
        private final IRichBolt delegate;
        private final String id;

        CountingBolt(IRichBolt delegate, String id) {
            this.delegate = delegate;
            this.id = id;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            delegate.prepare(topoConf, context,
                new OutputCollector(new CountingCollector(collector, transferred(id), countedTrees(id))));
        }

        @Override
        public void execute(Tuple input) {
            delegate.execute(input);
        }

        @Override
        public void cleanup() {
            delegate.cleanup();
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            delegate.declareOutputFields(declarer);
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return delegate.getComponentConfiguration();
        }
    }

    private static final class CountingCollector extends ForwardingOutputCollector {
        private final AtomicInteger transferred;
        private final Set<TupleTree> countedTrees;

        CountingCollector(IOutputCollector delegate, AtomicInteger transferred, Set<TupleTree> countedTrees) {
            super(delegate);
            this.transferred = transferred;
            this.countedTrees = countedTrees;
        }

        @Override
        public void ack(Tuple input) {
            transferred.addAndGet(IN_EMIT);
            int completed = 0;
            try {
                delegate.ack(input);
                completed = newlyCompleted(input);
            } finally {
                transferred.addAndGet(completed - IN_EMIT);
            }
        }

        @Override
        public void fail(Tuple input) {
            transferred.addAndGet(IN_EMIT);
            int completed = 0;
            try {
                delegate.fail(input);
                completed = newlyCompleted(input);
            } finally {
                transferred.addAndGet(completed - IN_EMIT);
            }
        }

        /** Trees of {@code input} that are now acked or failed (so the spout gets word) and not counted before. */
        private int newlyCompleted(Tuple input) {
            if (!(input.getMessageId() instanceof TrackedMessageId tracked)) {
                return 0;
            }
            int n = 0;
            for (int i = 0, count = tracked.treeCount(); i < count; i++) {
                TupleTree tree = tracked.tree(i);
                int state = tree.state();
                if ((state == TupleTree.ACKED || state == TupleTree.FAILED) && countedTrees.add(tree)) {
                    n++;
                }
            }
            return n;
        }

        @Override
        public List<Integer> emit(String streamId, java.util.Collection<Tuple> anchors, List<Object> tuple) {
            transferred.addAndGet(IN_EMIT);
            int sent = 0;
            try {
                List<Integer> tasks = delegate.emit(streamId, anchors, tuple);
                sent = tasks == null ? 0 : tasks.size();
                return tasks;
            } finally {
                transferred.addAndGet(sent - IN_EMIT);
            }
        }

        @Override
        public void emitDirect(int taskId, String streamId, java.util.Collection<Tuple> anchors, List<Object> tuple) {
            transferred.addAndGet(IN_EMIT);
            int sent = 0;
            try {
                delegate.emitDirect(taskId, streamId, anchors, tuple);
                sent = 1;
            } finally {
                transferred.addAndGet(sent - IN_EMIT);
            }
        }
    }

    /** A spout whose collector counts the tasks each emit reaches (and the ack of a tree that reaches none). */
    static final class CountingSpout implements IRichSpout {
        private static final long serialVersionUID = 1L;
        private final IRichSpout delegate;
        private final String id;

        CountingSpout(IRichSpout delegate, String id) {
            this.delegate = delegate;
            this.id = id;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            delegate.open(conf, context, new SpoutOutputCollector(new CountingSpoutCollector(collector, transferred(id))));
        }

        @Override
        public void close() {
            delegate.close();
        }

        @Override
        public void activate() {
            delegate.activate();
        }

        @Override
        public void deactivate() {
            delegate.deactivate();
        }

        @Override
        public void nextTuple() {
            delegate.nextTuple();
        }

        @Override
        public void ack(Object msgId) {
            delegate.ack(msgId);
        }

        @Override
        public void fail(Object msgId) {
            delegate.fail(msgId);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            delegate.declareOutputFields(declarer);
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return delegate.getComponentConfiguration();
        }
    }

    private static final class CountingSpoutCollector extends ForwardingSpoutOutputCollector {
        private final AtomicInteger transferred;

        CountingSpoutCollector(ISpoutOutputCollector delegate, AtomicInteger transferred) {
            super(delegate);
            this.transferred = transferred;
        }

        @Override
        public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
            transferred.addAndGet(IN_EMIT);
            int sent = 0;
            try {
                List<Integer> tasks = delegate.emit(streamId, tuple, messageId);
                int reached = tasks == null ? 0 : tasks.size();
                // a tree that reaches no task completes at once: its ack is on its way to the spout
                sent = reached + (messageId != null && reached == 0 ? 1 : 0);
                return tasks;
            } finally {
                transferred.addAndGet(sent - IN_EMIT);
            }
        }

        @Override
        public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
            transferred.addAndGet(IN_EMIT);
            int sent = 0;
            try {
                delegate.emitDirect(taskId, streamId, tuple, messageId);
                sent = 1;
            } finally {
                transferred.addAndGet(sent - IN_EMIT);
            }
        }
    }
}
