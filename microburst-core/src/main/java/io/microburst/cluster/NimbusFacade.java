package io.microburst.cluster;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.generated.SubmitOptions;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * The Nimbus interface of an in-process cluster, for code that reaches Nimbus through Storm's
 * {@code LocalCluster.getNimbus()}: each Nimbus call goes to the cluster's method of the same name and parameters
 * (activate, deactivate, kill, rebalance, topology views...); submitTopology takes its configuration as JSON, as
 * Nimbus does. A call the cluster has no method for throws {@link UnsupportedOperationException} naming it.
 *
 * <p>Threading: as the cluster's methods.
 */
public final class NimbusFacade {
    private NimbusFacade() {
    }

    /** A Nimbus view of {@code cluster}. */
    public static Nimbus.Iface of(ILocalCluster cluster) {
        return (Nimbus.Iface) Proxy.newProxyInstance(NimbusFacade.class.getClassLoader(),
            new Class<?>[] {Nimbus.Iface.class}, (proxy, method, args) -> call(cluster, proxy, method, args));
    }

    @SuppressWarnings("unchecked")
    private static Object call(ILocalCluster cluster, Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (method.getDeclaringClass() == Object.class) {
            return switch (name) {
                case "toString" -> "Nimbus view of " + cluster;
                case "hashCode" -> System.identityHashCode(cluster);
                case "equals" -> proxy == args[0];
                default -> throw new UnsupportedOperationException(name);
            };
        }
        try {
            if (name.equals("submitTopology") || name.equals("submitTopologyWithOpts")) {
                // (name, uploaded jar location, JSON configuration, topology[, options]): the jar is this process's
                Map<String, Object> conf = args[2] == null ? Map.of() : (Map<String, Object>) JSONValue.parse((String) args[2]);
                SubmitOptions options = args.length > 4 ? (SubmitOptions) args[4] : null;
                cluster.submitTopologyWithOpts((String) args[0], conf, (StormTopology) args[3], options);
                return null;
            }
            Method target;
            try {
                target = cluster.getClass().getMethod(name, method.getParameterTypes());
            } catch (NoSuchMethodException e) {
                throw new UnsupportedOperationException("Nimbus." + name + " is not available on "
                    + cluster.getClass().getSimpleName() + ": it runs in this process, without a Nimbus daemon");
            }
            return target.invoke(cluster, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
