package io.microburst.runtime.task;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.storm.task.IBolt;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.BasicBoltExecutor;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.FailedException;
import org.apache.storm.topology.IBasicBolt;
import org.apache.storm.topology.ReportedFailedException;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.Utils;

/**
 * Runs a {@link IBasicBolt} in place of storm-client's {@link BasicBoltExecutor}, which {@code TopologyBuilder} wraps
 * around every basic bolt, with the same contract: the collector anchors every emit to the input in execute, the input
 * is acked when execute returns and failed on a {@link FailedException} (reported first when it is a
 * {@link ReportedFailedException}); any other exception is the bolt's failure. As in Storm, one collector serves every
 * execute, its input set before each.
 *
 * <p>The difference is the depth of an emit: Storm's collector passes {@code emit(values)} through
 * {@code emit(streamId, values)} and the bolt's {@code OutputCollector}, so a basic bolt's emit is two call levels deeper
 * than a rich bolt's. Here, when the bolt's collector is the task's own, {@code emit} calls the task directly; a fused
 * chain inlines only within the JIT's inlining depth (see docs/performance/2026-11-22-fused-path.md).
 *
 * <p>Threading: the bolt's executor thread, as the bolt itself.
 */
final class BasicBoltRunner implements IBolt {
    private static final long serialVersionUID = 1L;
    /** BasicBoltExecutor's private field holding the basic bolt; null if this storm-client has none (then it runs as is). */
    private static final Field WRAPPED = wrappedField();

    private final IBasicBolt bolt;
    private transient OutputCollector out;
    private transient Collector collector;
    /**
     * False when no emit reads the input: the task's own collector with acking off. Then the input is not stored in the
     * collector: that store put every input tuple in a long-lived object, so the tuple could never be scalar-replaced
     * (WordCount's count thread allocated one per word) and each store paid G1's write barrier.
     */
    private transient boolean emitsReadInput;

    private BasicBoltRunner(IBasicBolt bolt) {
        this.bolt = bolt;
    }

    /** The bolt to run for {@code instance}: a runner for a BasicBoltExecutor, else the instance itself. */
    static IBolt of(Object instance) {
        if (WRAPPED != null && instance.getClass() == BasicBoltExecutor.class) {
            try {
                return new BasicBoltRunner((IBasicBolt) WRAPPED.get(instance));
            } catch (IllegalAccessException | ClassCastException e) {
                return (IBolt) instance;
            }
        }
        return (IBolt) instance;
    }

    private static Field wrappedField() {
        try {
            Field f = BasicBoltExecutor.class.getDeclaredField("bolt");
            f.setAccessible(true);
            return IBasicBolt.class.isAssignableFrom(f.getType()) ? f : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** The basic bolt this runs (tests). */
    IBasicBolt basicBolt() {
        return bolt;
    }

    @Override
    public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector out) {
        bolt.prepare(topoConf, context);
        this.out = out;
        this.collector = out instanceof BoltOutput own ? new ToTask(out, own.task()) : new ToCollector(out);
        this.emitsReadInput = !(out instanceof BoltOutput own) || own.task().acking;
    }

    @Override
    public void execute(Tuple input) {
        if (emitsReadInput) {
            collector.setContext(input);
        }
        try {
            bolt.execute(input, collector);
            out.ack(input);
        } catch (FailedException e) {
            if (e instanceof ReportedFailedException) {
                out.reportError(e);
            }
            out.fail(input);
        }
    }

    @Override
    public void cleanup() {
        bolt.cleanup();
    }

    /** The basic bolt's collector; every emit is anchored to the input it was last set to. */
    private abstract static class Collector extends BasicOutputCollector {
        Tuple input;

        Collector(OutputCollector out) {
            super(out);
        }

        @Override
        public final void setContext(Tuple inputTuple) {
            this.input = inputTuple;
        }
    }

    /** Emits through the bolt's collector (when it is wrapped, e.g. for topology.debug or the serialization check). */
    private static final class ToCollector extends Collector {
        private final OutputCollector out;

        ToCollector(OutputCollector out) {
            super(out);
            this.out = out;
        }

        @Override
        public List<Integer> emit(String streamId, List<Object> tuple) {
            return out.emit(streamId, input, tuple);
        }

        @Override
        public List<Integer> emit(List<Object> tuple) {
            return out.emit(Utils.DEFAULT_STREAM_ID, input, tuple);
        }

        @Override
        public void emitDirect(int taskId, String streamId, List<Object> tuple) {
            out.emitDirect(taskId, streamId, input, tuple);
        }

        @Override
        public void emitDirect(int taskId, List<Object> tuple) {
            out.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, input, tuple);
        }
    }

    /**
     * Emits straight into the task, as {@link BoltOutput} does for an anchored emit: the anchor is wrapped in a list only
     * when acking is on.
     */
    private static final class ToTask extends Collector {
        private final BoltTask task;

        ToTask(OutputCollector out, BoltTask task) {
            super(out);
            this.task = task;
        }

        @Override
        public List<Integer> emit(String streamId, List<Object> tuple) {
            return task.emit(streamId, task.acking ? Collections.singletonList(input) : null, tuple);
        }

        @Override
        public List<Integer> emit(List<Object> tuple) {
            return task.emit(Utils.DEFAULT_STREAM_ID, task.acking ? Collections.singletonList(input) : null, tuple);
        }

        @Override
        public void emitDirect(int taskId, String streamId, List<Object> tuple) {
            task.emitDirect(taskId, streamId, task.acking ? Collections.singletonList(input) : null, tuple);
        }

        @Override
        public void emitDirect(int taskId, List<Object> tuple) {
            task.emitDirect(taskId, Utils.DEFAULT_STREAM_ID, task.acking ? Collections.singletonList(input) : null, tuple);
        }
    }
}
