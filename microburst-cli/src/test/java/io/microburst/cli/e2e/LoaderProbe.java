package io.microburst.cli.e2e;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a topology's bolt, loaded by the server from a jar, reports its class loader and the tuples it saw. The class
 * is in a package the server shares with every topology, so the jar's code and the test see the same one.
 */
public final class LoaderProbe {
    static final AtomicReference<WeakReference<ClassLoader>> LOADER = new AtomicReference<>();
    static final AtomicInteger TUPLES = new AtomicInteger();

    private LoaderProbe() {
    }

    public static void prepared(ClassLoader loader) {
        LOADER.set(new WeakReference<>(loader));
    }

    public static void executed() {
        TUPLES.incrementAndGet();
    }

    static void reset() {
        LOADER.set(null);
        TUPLES.set(0);
    }
}
