package io.microburst.state;

import java.util.List;
import java.util.Map;
import org.apache.storm.state.DefaultStateSerializer;
import org.apache.storm.state.KeyValueState;
import org.apache.storm.state.Serializer;
import org.apache.storm.state.State;
import org.apache.storm.state.StateProvider;
import org.apache.storm.task.TopologyContext;

/**
 * A durable {@link StateProvider}: a topology selects it with
 * {@code topology.state.provider = io.microburst.state.RocksDbKeyValueStateProvider} and configures it with
 * {@code topology.state.provider.config} (see {@link RocksDbStateConfig}). Every namespace (one per stateful task and
 * one per checkpoint spout task) lives in one RocksDB store per directory, shared by the tasks of a process; a second
 * process that opens the same directory gets a {@link StateStoreException} saying so.
 *
 * <p>Keys and values are serialized as Storm's providers do ({@link DefaultStateSerializer}, Kryo, unless the
 * configuration names a serializer class), so the same topology can switch to another provider by configuration
 * alone.
 */
public final class RocksDbKeyValueStateProvider implements StateProvider {
    @Override
    public State newState(String namespace, Map<String, Object> topoConf, TopologyContext context) {
        return newKeyValueState(namespace, topoConf, context);
    }

    /** The same as {@link #newState}, typed. */
    public <K, V> KeyValueState<K, V> newKeyValueState(String namespace, Map<String, Object> topoConf,
                                                       TopologyContext context) {
        RocksDbStateConfig config = RocksDbStateConfig.from(topoConf);
        Serializer<K> keys = serializer(config.keySerializerClass(), config.keyClass(), topoConf, context, "key");
        Serializer<V> values = serializer(config.valueSerializerClass(), config.valueClass(), topoConf, context,
                "value");
        return new RocksDbKeyValueState<>(namespace, RocksDbStore.open(config.directory()), keys, values);
    }

    @SuppressWarnings("unchecked")
    private static <T> Serializer<T> serializer(String serializerClass, String registeredClass,
                                                Map<String, Object> topoConf, TopologyContext context, String what) {
        try {
            if (serializerClass != null) {
                return (Serializer<T>) Class.forName(serializerClass, true, classLoader())
                        .getDeclaredConstructor().newInstance();
            }
            if (registeredClass != null) {
                return new DefaultStateSerializer<>(topoConf, context,
                        List.of(Class.forName(registeredClass, true, classLoader())));
            }
            return new DefaultStateSerializer<>(topoConf, context);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException("topology.state.provider.config: cannot use the " + what
                    + " class '" + (serializerClass != null ? serializerClass : registeredClass) + "': " + e, e);
        }
    }

    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : RocksDbKeyValueStateProvider.class.getClassLoader();
    }
}
