package io.microburst.server;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * The class loader of one submitted topology: the jar's own classes come first (child first), so two topologies may
 * bundle different versions of one library; the API that the server and the topology share (Java, Storm's client,
 * Microburst, the logging facades) always comes from the server, so that a jar which bundles storm-client still hands
 * the runtime Storm's own types.
 */
public final class TopologyClassLoader extends URLClassLoader {
    /** Packages that must be the server's: a second copy would be a different type to the runtime. */
    private static final String[] SHARED = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.apache.storm.", "io.microburst.", "org.slf4j.",
        "org.apache.logging.log4j.", "org.apache.log4j.",
    };

    static {
        registerAsParallelCapable();
    }

    public TopologyClassLoader(String topologyName, Path jar, ClassLoader parent) throws IOException {
        super("topology-" + topologyName, new URL[] {jar.toUri().toURL()}, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (shared(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                try {
                    type = findClass(name);
                } catch (ClassNotFoundException notInJar) {
                    return super.loadClass(name, resolve);
                }
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }

    @Override
    public URL getResource(String name) {
        if (shared(name.replace('/', '.'))) {
            return super.getResource(name);
        }
        URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    private static boolean shared(String name) {
        for (String prefix : SHARED) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
