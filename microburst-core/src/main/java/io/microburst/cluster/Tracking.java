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
import org.apache.storm.utils.TupleUtils;
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
 * <p>While an emit, ack or fail is under way, and while anything counted is not processed yet, "transferred" is held
 * high ({@link TrackedTransfers}), so that neither receivers executing inside the emit (a fused edge) nor a read of
 * "transferred" taken before a tuple ran make the two counters equal before everything sent was processed.
 *
 * <p>Threading: the counters are atomic; any thread.
 */
public final class Tracking implements AutoCloseable {
    static final String SPOUT_EMITTED = "spout-emitted";
    static final String TRANSFERRED = "transferred";
    static final String PROCESSED = "processed";
    /**
     * Per tracked id, the trees whose ack or fail to the spout is counted already (two bolts acking the last tuples
     * of a tree at once both see it complete). Weak: a tree the spout is done with goes.
     */
    private static final Map<String, Set<TupleTree>> COUNTED_TREES = new ConcurrentHashMap<>();
    /** Per tracked id, its "transferred" counter with the holds on it. */
    private static final Map<String, TrackedTransfers> TRANSFERS = new ConcurrentHashMap<>();
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
        TRANSFERS.put(id, new TrackedTransfers(counters.get(TRANSFERRED)));
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
        TRANSFERS.remove(id);
    }

    private static Set<TupleTree> countedTrees(String id) {
        Set<TupleTree> counted = COUNTED_TREES.get(id);
        if (counted == null) {
            throw new IllegalStateException("The tracked cluster '" + id + "' is closed");
        }
        return counted;
    }

    static TrackedTransfers transfers(String id) {
        TrackedTransfers transfers = TRANSFERS.get(id);
        if (transfers == null) {
            throw new IllegalStateException("The tracked cluster '" + id + "' is closed");
        }
        return transfers;
    }

    /** A bolt whose collector counts the tasks each emit reaches. */
    static final class CountingBolt implements IRichBolt {
        private static final long serialVersionUID = 1L;
        private final IRichBolt delegate;
        private final String id;
        private transient TrackedTransfers transfers;

        CountingBolt(IRichBolt delegate, String id) {
            this.delegate = delegate;
            this.id = id;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            transfers = transfers(id);
            delegate.prepare(topoConf, context,
                new OutputCollector(new CountingCollector(collector, transfers, countedTrees(id))));
        }

        @Override
        public void execute(Tuple input) {
            delegate.execute(input); // storm-client's BoltTracker counts it processed as this returns
            if (!TupleUtils.isTick(input)) { // ticks come from no send, as in Storm
                transfers.processed();
            }
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
        private final TrackedTransfers transfers;
        private final Set<TupleTree> countedTrees;

        CountingCollector(IOutputCollector delegate, TrackedTransfers transfers, Set<TupleTree> countedTrees) {
            super(delegate);
            this.transfers = transfers;
            this.countedTrees = countedTrees;
        }

        @Override
        public void ack(Tuple input) {
            transfers.sending();
            int completed = 0;
            try {
                delegate.ack(input);
                completed = newlyCompleted(input);
            } finally {
                transfers.sent(completed);
            }
        }

        @Override
        public void fail(Tuple input) {
            transfers.sending();
            int completed = 0;
            try {
                delegate.fail(input);
                completed = newlyCompleted(input);
            } finally {
                transfers.sent(completed);
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
            transfers.sending();
            int sent = 0;
            try {
                List<Integer> tasks = delegate.emit(streamId, anchors, tuple);
                sent = tasks == null ? 0 : tasks.size();
                return tasks;
            } finally {
                transfers.sent(sent);
            }
        }

        @Override
        public void emitDirect(int taskId, String streamId, java.util.Collection<Tuple> anchors, List<Object> tuple) {
            transfers.sending();
            int sent = 0;
            try {
                delegate.emitDirect(taskId, streamId, anchors, tuple);
                sent = 1;
            } finally {
                transfers.sent(sent);
            }
        }
    }

    /** A spout whose collector counts the tasks each emit reaches (and the ack of a tree that reaches none). */
    static final class CountingSpout implements IRichSpout {
        private static final long serialVersionUID = 1L;
        private final IRichSpout delegate;
        private final String id;
        private transient TrackedTransfers transfers;

        CountingSpout(IRichSpout delegate, String id) {
            this.delegate = delegate;
            this.id = id;
        }

        @Override
        public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
            transfers = transfers(id);
            delegate.open(conf, context, new SpoutOutputCollector(new CountingSpoutCollector(collector, transfers)));
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
            delegate.ack(msgId); // storm-client's SpoutTracker counts it processed within
            transfers.processed();
        }

        @Override
        public void fail(Object msgId) {
            delegate.fail(msgId);
            transfers.processed();
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
        private final TrackedTransfers transfers;

        CountingSpoutCollector(ISpoutOutputCollector delegate, TrackedTransfers transfers) {
            super(delegate);
            this.transfers = transfers;
        }

        @Override
        public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
            transfers.sending();
            int sent = 0;
            try {
                List<Integer> tasks = delegate.emit(streamId, tuple, messageId);
                int reached = tasks == null ? 0 : tasks.size();
                // a tree that reaches no task completes at once: its ack is on its way to the spout
                sent = reached + (messageId != null && reached == 0 ? 1 : 0);
                return tasks;
            } finally {
                transfers.sent(sent);
            }
        }

        @Override
        public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
            transfers.sending();
            int sent = 0;
            try {
                delegate.emitDirect(taskId, streamId, tuple, messageId);
                sent = 1;
            } finally {
                transfers.sent(sent);
            }
        }
    }
}
