package io.microburst.plan;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.generated.ComponentObject;
import org.apache.storm.generated.JavaObject;
import org.apache.storm.generated.JavaObjectArg;

/**
 * Turns the serialized user objects of a topology (spouts, bolts, groupings, hooks) into fresh instances, resolving
 * classes with the class loader that submitted the topology, so that a topology loaded from its own jar works.
 *
 * <p>Threading: stateless; any thread (each call makes a fresh instance).
 */
public final class UserObjects {
    private UserObjects() {
    }

    /** A fresh instance of a component: one per task, and a new one each time a failed task is replaced. */
    public static Object instantiate(ComponentObject object, ClassLoader loader, String componentId) {
        if (object == null) {
            throw new IllegalArgumentException("Component '" + componentId + "' has no object");
        }
        if (object.is_set_serialized_java()) {
            return deserialize(object.get_serialized_java(), loader, "component '" + componentId + "'");
        }
        if (object.is_set_java_object()) {
            return instantiate(object.get_java_object(), loader, "component '" + componentId + "'");
        }
        throw new IllegalArgumentException("Component '" + componentId + "' is a " + object.getSetField()
            + " component; only Java components are supported (wrap shell components in ShellBolt/ShellSpout)");
    }

    /** Java-deserializes bytes with the given class loader. */
    public static Object deserialize(byte[] bytes, ClassLoader loader, String what) {
        try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalArgumentException("Cannot deserialize " + what + ": " + e, e);
        }
    }

    /** Creates a {@link JavaObject}: a class name and constructor arguments. */
    public static Object instantiate(JavaObject spec, ClassLoader loader, String what) {
        List<Object> args = new ArrayList<>();
        for (JavaObjectArg arg : spec.get_args_list()) {
            args.add(arg.getFieldValue());
        }
        try {
            Class<?> type = Class.forName(spec.get_full_class_name(), true, loader);
            for (Constructor<?> c : type.getConstructors()) {
                if (c.getParameterCount() == args.size() && accepts(c.getParameterTypes(), args)) {
                    return c.newInstance(args.toArray());
                }
            }
            throw new IllegalArgumentException("No public constructor of " + type.getName() + " takes " + args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("Cannot create " + what + " from " + spec.get_full_class_name() + ": " + e, e);
        }
    }

    private static boolean accepts(Class<?>[] types, List<Object> args) {
        for (int i = 0; i < types.length; i++) {
            Object a = args.get(i);
            Class<?> t = types[i];
            if (t.isPrimitive()) {
                if (a == null || !boxed(t).isInstance(a)) {
                    return false;
                }
            } else if (a != null && !t.isInstance(a)) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> boxed(Class<?> primitive) {
        if (primitive == int.class) {
            return Integer.class;
        } else if (primitive == long.class) {
            return Long.class;
        } else if (primitive == boolean.class) {
            return Boolean.class;
        } else if (primitive == double.class) {
            return Double.class;
        }
        return Void.class;
    }

    private static final class LoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
