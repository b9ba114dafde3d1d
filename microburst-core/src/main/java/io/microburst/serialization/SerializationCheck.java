package io.microburst.serialization;

import io.microburst.collector.ForwardingOutputCollector;
import io.microburst.collector.ForwardingSpoutOutputCollector;
import io.microburst.config.ConfigKeys;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.serialization.KryoValuesDeserializer;
import org.apache.storm.serialization.KryoValuesSerializer;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;

/**
 * {@link io.microburst.MicroburstConfig#SERIALIZATION_CHECK}: every tuple a task emits is serialized and deserialized with Storm's
 * Kryo setup for the topology's configuration ({@code topology.kryo.register}, {@code topology.kryo.factory},
 * {@code topology.fall.back.on.java.serialization}, ...), exactly as a worker of a Storm cluster does before a tuple
 * leaves its process. A value that cannot make the trip is refused with a {@link NotSerializableValueException} naming
 * the component, the stream and the field, thrown from the emit: the tuple is not emitted, and the task fails as when
 * its own code throws (the error is the task's, and its input tuple is failed).
 *
 * <p>When the key is unset or false, {@link #wrap(OutputCollector, Map, TopologyContext)} and
 * {@link #wrap(SpoutOutputCollector, Map, TopologyContext)} return the collector they are given, so the check costs
 * nothing once a task is prepared. When on, each task has its own serializer (Kryo is not thread-safe) and emits of one
 * task are checked one at a time.
 */
public final class SerializationCheck {
    private final String component;
    private final TopologyContext context;
    private final KryoValuesSerializer serializer;
    private final KryoValuesDeserializer deserializer;

    private SerializationCheck(Map<String, Object> conf, TopologyContext context) {
        this.component = context.getThisComponentId();
        this.context = context;
        Map<String, Object> full = new HashMap<>(Utils.readDefaultConfig());
        full.putAll(conf);
        this.serializer = new KryoValuesSerializer(full);
        this.deserializer = new KryoValuesDeserializer(full);
    }

    /** Whether {@code conf} turns the check on. */
    public static boolean enabled(Map<String, Object> conf) {
        return ObjectReader.getBoolean(conf.get(ConfigKeys.SERIALIZATION_CHECK), false);
    }

    /** {@code collector}, or, when {@code conf} turns the check on, a collector that checks each tuple first. */
    public static OutputCollector wrap(OutputCollector collector, Map<String, Object> conf, TopologyContext context) {
        if (!enabled(conf)) {
            return collector;
        }
        SerializationCheck check = new SerializationCheck(conf, context);
        return new OutputCollector(new CheckingBoltCollector(collector, check));
    }

    /** {@code collector}, or, when {@code conf} turns the check on, a collector that checks each tuple first. */
    public static SpoutOutputCollector wrap(SpoutOutputCollector collector, Map<String, Object> conf,
                                            TopologyContext context) {
        if (!enabled(conf)) {
            return collector;
        }
        SerializationCheck check = new SerializationCheck(conf, context);
        return new SpoutOutputCollector(new CheckingSpoutCollector(collector, check));
    }

    /**
     * Serializes {@code values} and reads them back as a worker would; throws {@link NotSerializableValueException}
     * naming the first value that cannot make the trip.
     */
    public synchronized void check(String streamId, List<Object> values) {
        try {
            deserializer.deserialize(serializer.serialize(values));
            return;
        } catch (RuntimeException whole) {
            // Find the value: one at a time, the same way.
            for (int i = 0; i < values.size(); i++) {
                Object value = values.get(i);
                try {
                    deserializer.deserializeObject(serializer.serializeObject(value));
                } catch (RuntimeException e) {
                    throw new NotSerializableValueException(component, streamId, fieldName(streamId, i), i, value, e);
                }
            }
            throw new NotSerializableValueException(component, streamId, null, -1, null, whole);
        }
    }

    private String fieldName(String streamId, int index) {
        try {
            Fields fields = context.getComponentOutputFields(component, streamId);
            return fields != null && index < fields.size() ? fields.get(index) : null;
        } catch (RuntimeException undeclared) {
            return null;
        }
    }

    /** Checks, then hands the emit to the runtime's own collector. */
    private static final class CheckingBoltCollector extends ForwardingOutputCollector {
        private final SerializationCheck check;

        CheckingBoltCollector(OutputCollector delegate, SerializationCheck check) {
            super(delegate);
            this.check = check;
        }

        @Override
        public List<Integer> emit(String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            check.check(streamId, tuple);
            return delegate.emit(streamId, anchors, tuple);
        }

        @Override
        public void emitDirect(int taskId, String streamId, Collection<Tuple> anchors, List<Object> tuple) {
            check.check(streamId, tuple);
            delegate.emitDirect(taskId, streamId, anchors, tuple);
        }
    }

    /** Checks, then hands the emit to the runtime's own collector. */
    private static final class CheckingSpoutCollector extends ForwardingSpoutOutputCollector {
        private final SerializationCheck check;

        CheckingSpoutCollector(SpoutOutputCollector delegate, SerializationCheck check) {
            super(delegate);
            this.check = check;
        }

        @Override
        public List<Integer> emit(String streamId, List<Object> tuple, Object messageId) {
            check.check(streamId, tuple);
            return delegate.emit(streamId, tuple, messageId);
        }

        @Override
        public void emitDirect(int taskId, String streamId, List<Object> tuple, Object messageId) {
            check.check(streamId, tuple);
            delegate.emitDirect(taskId, streamId, tuple, messageId);
        }
    }
}
