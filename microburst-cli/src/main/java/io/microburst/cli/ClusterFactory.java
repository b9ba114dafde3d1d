package io.microburst.cli;

import io.microburst.MicroburstCluster;
import java.lang.reflect.InvocationTargetException;
import java.util.function.Supplier;
import org.apache.storm.ILocalCluster;

/**
 * Creates the in-process cluster the command line runs on: a {@link MicroburstCluster}, unless the system property
 * {@value #CLUSTER_CLASS_PROPERTY} names another {@link ILocalCluster} with a public no-argument constructor (for
 * example {@code org.apache.storm.LocalCluster}, to run the same jar on Apache Storm's local mode for comparison,
 * when storm-server is on the class path). {@code microburst local} calls it inside the topology jar's class loader,
 * which holds the command line's class path and the jar, as the JVM's class path does under {@code storm local}.
 */
public final class ClusterFactory {
    /** System property naming an alternative {@link ILocalCluster} class. */
    public static final String CLUSTER_CLASS_PROPERTY = "microburst.cluster.class";

    private ClusterFactory() {
    }

    /** A supplier for the configured cluster; the class is resolved when the supplier is called. */
    public static Supplier<ILocalCluster> fromSystemProperties() {
        String className = System.getProperty(CLUSTER_CLASS_PROPERTY);
        if (className == null || className.isBlank()) {
            return MicroburstCluster::new;
        }
        return () -> instantiate(className.trim());
    }

    private static ILocalCluster instantiate(String className) {
        try {
            Class<?> type = Class.forName(className, true, ClusterFactory.class.getClassLoader());
            if (!ILocalCluster.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(className + " does not implement " + ILocalCluster.class.getName());
            }
            return (ILocalCluster) type.getConstructor().newInstance();
        } catch (ClassNotFoundException | NoSuchMethodException | InstantiationException
                 | IllegalAccessException e) {
            throw new IllegalArgumentException("cannot create cluster " + className + ": " + e, e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("cluster " + className + " failed to start: " + e.getCause(),
                    e.getCause());
        }
    }
}
