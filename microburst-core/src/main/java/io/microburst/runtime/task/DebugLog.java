package io.microburst.runtime.task;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.spout.ISpoutOutputCollector;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.IBolt;
import org.apache.storm.task.IOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.ObjectReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code topology.debug}: every emit, execute, bolt ack and bolt fail logged at INFO, in the words Storm's workers use
 * ("Emitting Tuple: taskId=.. componentId=.. stream=.. values=..", "Processing received TUPLE: .. for TASK: ..",
 * "Execute done TUPLE .. TASK: .. DELTA: .."). It is decided once per task instance, when the instance is opened or
 * prepared: a debug task gets a logging bolt and collector wrapped around its own, and a task without debug runs
 * exactly the code it runs otherwise, with no check per tuple.
 */
final class DebugLog {
    private static final Logger LOG = LoggerFactory.getLogger(DebugLog.class);

    private DebugLog() {
    }

    /** Whether the task's configuration (the topology's, or its component's override) turns debug on. */
    static boolean enabled(Map<String, Object> componentConf) {
        return ObjectReader.getBoolean(componentConf.get(Config.TOPOLOGY_DEBUG), false);
    }

    static IBolt bolt(IBolt bolt, int taskId) {
        return new LoggingBolt(bolt, taskId);
    }

    static OutputCollector boltCollector(IOutputCollector task, int taskId, String componentId) {
        return new OutputCollector(new LoggingBoltCollector(task, taskId, componentId));
    }

    static SpoutOutputCollector spoutCollector(ISpoutOutputCollector task, int taskId, String componentId) {
        return new SpoutOutputCollector(new LoggingSpoutCollector(task, taskId, componentId));
    }

    private static void emitting(int taskId, String componentId, String stream, List<Object> values) {
        LOG.info("Emitting Tuple: taskId={} componentId={} stream={} values={}", taskId, componentId, stream, values);
    }

    private static void emittingDirect(int target, String componentId, String stream, List<Object> values) {
        LOG.info("Emitting direct: {}; {} {} {} ", target, componentId, stream, values);
    }

    private record LoggingBolt(IBolt bolt, int taskId) implements IBolt {
        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            bolt.prepare(topoConf, context, collector);
        }

        @Override
        public void execute(Tuple input) {
            LOG.info("Processing received TUPLE: {} for TASK: {} ", input, taskId);
            long start = System.nanoTime();
            bolt.execute(input);
            LOG.info("Execute done TUPLE {} TASK: {} DELTA: {}", input, taskId, (System.nanoTime() - start) / 1_000_000);
        }

        @Override
        public void cleanup() {
            bolt.cleanup();
        }
    }

    private record LoggingBoltCollector(IOutputCollector task, int taskId, String componentId)
        implements IOutputCollector {
        @Override
        public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            emitting(taskId, componentId, streamId, tuple);
            return task.emit(streamId, anchors, tuple);
        }

        @Override
        public void emitDirect(int target, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            emittingDirect(target, componentId, streamId, tuple);
            task.emitDirect(target, streamId, anchors, tuple);
        }

        @Override
        public void ack(Tuple input) {
            LOG.info("BOLT ack TASK: {} TUPLE: {}", taskId, input);
            task.ack(input);
        }

        @Override
        public void fail(Tuple input) {
            LOG.info("BOLT fail TASK: {} TUPLE: {}", taskId, input);
            task.fail(input);
        }

        @Override
        public void resetTimeout(Tuple input) {
            task.resetTimeout(input);
        }

        @Override
        public void flush() {
            task.flush();
        }

        @Override
        public void reportError(Throwable error) {
            task.reportError(error);
        }
    }

    private record LoggingSpoutCollector(ISpoutOutputCollector task, int taskId, String componentId)
        implements ISpoutOutputCollector {
        @Override
        public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
            emitting(taskId, componentId, streamId, tuple);
            return task.emit(streamId, tuple, messageId);
        }

        @Override
        public void emitDirect(int target, String streamId, List<Object> tuple, Object messageId) {
            emittingDirect(target, componentId, streamId, tuple);
            task.emitDirect(target, streamId, tuple, messageId);
        }

        @Override
        public long getPendingCount() {
            return task.getPendingCount();
        }

        @Override
        public void flush() {
            task.flush();
        }

        @Override
        public void reportError(Throwable error) {
            task.reportError(error);
        }
    }
}
