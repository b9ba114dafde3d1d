package io.microburst.cluster;

import io.microburst.collector.ForwardingOutputCollector;
import io.microburst.collector.ForwardingSpoutOutputCollector;
import java.util.List;
import java.util.Map;
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
 * "transferred". Storm counts "transferred" in its executors' transfer function, and an acker's ack to a spout is one
 * transfer; here each component's collector is wrapped at submit to count what it sends: one per receiving task, and
 * one per spout tuple with a message id (its ack or fail, which the spout's tracker counts as processed). So
 * transferred equals processed exactly when every tuple sent was executed and every ack or fail was delivered.
 *
 * <p>While an emit is under way its count is held up by {@link #IN_EMIT}, so that receivers executing inside the
 * emit (a fused edge) never make the two counters equal before the emit's own count is in.
 *
 * <p>Threading: the counters are atomic; any thread.
 */
public final class Tracking implements AutoCloseable {
    static final String SPOUT_EMITTED = "spout-emitted";
    static final String TRANSFERRED = "transferred";
    static final String PROCESSED = "processed";
    private static final int IN_EMIT = 1 << 20;
    private final String id;

    private Tracking(String id) {
        this.id = id;
    }

    /** Registers fresh counters under a new id. */
    public static Tracking start() {
        Tracking tracking = new Tracking("microburst-tracked-" + Utils.uuid());
        Map<String, AtomicInteger> counters = new ConcurrentHashMap<>();
        counters.put(SPOUT_EMITTED, new AtomicInteger());
        counters.put(TRANSFERRED, new AtomicInteger());
        counters.put(PROCESSED, new AtomicInteger());
        RegisteredGlobalState.setState(tracking.id, counters);
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
            delegate.prepare(topoConf, context, new OutputCollector(new CountingCollector(collector, transferred(id))));
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

        CountingCollector(IOutputCollector delegate, AtomicInteger transferred) {
            super(delegate);
            this.transferred = transferred;
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

    /** A spout whose collector counts the tasks each emit reaches, and the ack or fail a message id will bring. */
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
                sent = (tasks == null ? 0 : tasks.size()) + (messageId == null ? 0 : 1);
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
                sent = 1 + (messageId == null ? 0 : 1);
            } finally {
                transferred.addAndGet(sent - IN_EMIT);
            }
        }
    }
}
