package io.microburst.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * storm-client's {@code SerializationFactory} keeps, from its class initialization on, a {@code ServiceLoader} on the
 * context class loader of the thread that first touched it. The server initializes it on its own loader, so that a
 * topology's loader, the context loader of the thread that starts the topology, is not kept after the topology is gone
 * (found by the Kafka upgrade measurement: the first version's loader stayed after 20 upgrades). The class is
 * initialized once per JVM, so the test initializes a fresh copy of it, in a loader of its own over storm-client's jar.
 */
class StormServiceLoadersTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @Test
    void serializationFactoryKeepsTheGivenLoaderNotTheCallersContextLoader() throws Exception {
        URL stormClient = org.apache.storm.Config.class.getProtectionDomain().getCodeSource().getLocation();
        URL slf4j = org.slf4j.LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation();
        URL kryo = com.esotericsoftware.kryo.Kryo.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader freshStorm = new URLClassLoader(new URL[] {stormClient, slf4j, kryo},
                ClassLoader.getPlatformClassLoader())) {
            WeakReference<ClassLoader> topology = initializeFrom(freshStorm);
            long deadline = System.nanoTime() + DEADLINE_NANOS;
            while (topology.get() != null && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(20);
            }
            assertTrue(topology.get() == null, "the context loader of the thread that initialized storm-client's "
                + "SerializationFactory is still reachable");
            Class<?> factory = Class.forName(StormServiceLoaders.SERIALIZATION_FACTORY, false, freshStorm);
            assertTrue(factory.getClassLoader() == freshStorm, "a fresh copy was initialized");
        }
    }

    /** Initializes the fresh copy while a stand-in topology loader is the context loader; answers that loader. */
    private static WeakReference<ClassLoader> initializeFrom(ClassLoader freshStorm) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        URLClassLoader topology = new URLClassLoader("topology-stand-in", new URL[0], freshStorm);
        thread.setContextClassLoader(topology);
        try {
            StormServiceLoaders.initialize(freshStorm);
        } finally {
            thread.setContextClassLoader(previous);
        }
        topology.close();
        return new WeakReference<>(topology);
    }
}
