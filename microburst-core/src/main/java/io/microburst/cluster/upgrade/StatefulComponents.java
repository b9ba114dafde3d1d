package io.microburst.cluster.upgrade;

import io.microburst.plan.ComponentPlan;
import io.microburst.plan.TopologyPlan;
import io.microburst.plan.UserObjects;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.apache.storm.spout.CheckpointSpout;
import org.apache.storm.topology.IStatefulComponent;

/**
 * Which components of a topology keep state through Storm's checkpoints, and of which state type: a stateful bolt
 * is submitted wrapped in storm-client's executor bolt, whose field holds the user's {@link IStatefulComponent}; the
 * type is the argument the user's class gives {@code IStatefulComponent<T>} (say
 * {@code KeyValueState<String, Long>}). Storm's checkpoint spout keeps state too (its transaction), listed with the
 * type {@code checkpoint}.
 *
 * <p>Threading: stateless; the upgrading thread.
 */
final class StatefulComponents {
    static final String CHECKPOINT_TYPE = "checkpoint";

    private StatefulComponents() {
    }

    /** Component id to state type name, for each stateful component of {@code plan}, its objects made with {@code loader}. */
    static Map<String, String> of(TopologyPlan plan, ClassLoader loader) {
        Map<String, String> types = new TreeMap<>();
        for (ComponentPlan c : plan.components().values()) {
            if (c.id().equals(CheckpointSpout.CHECKPOINT_COMPONENT_ID)) {
                types.put(c.id(), CHECKPOINT_TYPE);
                continue;
            }
            if (c.isSpout()) {
                continue;
            }
            Object bolt = UserObjects.instantiate(c.object(), loader, c.id());
            Object stateful = statefulInside(bolt);
            if (stateful != null) {
                types.put(c.id(), stateType(stateful.getClass()));
            }
        }
        return types;
    }

    /** The {@link IStatefulComponent} a bolt is or wraps (storm-client's executor bolts hold it in a field), or null. */
    private static Object statefulInside(Object bolt) {
        if (bolt instanceof IStatefulComponent<?>) {
            return bolt;
        }
        for (Class<?> c = bolt.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            if (!c.getName().startsWith("org.apache.storm.")) {
                continue; // only storm-client's wrappers; a user's bolt holding a stateful object is not one
            }
            for (Field f : c.getDeclaredFields()) {
                if (IStatefulComponent.class.isAssignableFrom(f.getType())) {
                    try {
                        f.setAccessible(true);
                        return f.get(bolt);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        return null;
                    }
                }
            }
        }
        return null;
    }

    /** The type argument {@code type}'s hierarchy gives {@code IStatefulComponent<T>}, as a name. */
    static String stateType(Class<?> type) {
        Type found = find(type, new HashMap<>());
        return found == null ? "State" : found.getTypeName();
    }

    private static Type find(Type type, Map<TypeVariable<?>, Type> bindings) {
        Class<?> raw;
        Map<TypeVariable<?>, Type> here = new HashMap<>();
        if (type instanceof ParameterizedType p) {
            raw = (Class<?>) p.getRawType();
            TypeVariable<?>[] vars = raw.getTypeParameters();
            Type[] args = p.getActualTypeArguments();
            for (int i = 0; i < vars.length && i < args.length; i++) {
                here.put(vars[i], args[i] instanceof TypeVariable<?> v && bindings.containsKey(v) ? bindings.get(v)
                    : args[i]);
            }
            if (raw == IStatefulComponent.class) {
                return here.get(vars[0]);
            }
        } else if (type instanceof Class<?> c) {
            raw = c;
        } else {
            return null;
        }
        if (raw.getGenericSuperclass() != null) {
            Type t = find(raw.getGenericSuperclass(), here);
            if (t != null) {
                return t;
            }
        }
        for (Type i : raw.getGenericInterfaces()) {
            Type t = find(i, here);
            if (t != null) {
                return t;
            }
        }
        return null;
    }
}
