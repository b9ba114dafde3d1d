package io.microburst.server;

/**
 * Initializes storm-client's classes that, when first touched, make a {@code ServiceLoader} on the calling thread's
 * context class loader and keep it in a static field for the JVM's life: {@code SerializationFactory} (its
 * {@code SerializationRegister} services). Touched first by a topology's start, whose thread has that topology's
 * {@link TopologyClassLoader} as context loader, it would keep that topology's loader, and every class of its jar,
 * after the topology is killed or upgraded, and look up the services of every later topology in that first jar. Done
 * once, at the server's start, on the thread that starts it, with the server's own loader as context loader.
 */
final class StormServiceLoaders {
    static final String SERIALIZATION_FACTORY = "org.apache.storm.serialization.SerializationFactory";

    private StormServiceLoaders() {
    }

    /** Initializes the classes named above, their service loaders on {@code loader}. */
    static void initialize(ClassLoader loader) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Class.forName(SERIALIZATION_FACTORY, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("storm-client is not on the server's class path: " + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
