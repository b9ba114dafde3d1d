package io.microburst.cli.e2e;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tells a test topology's spout, loaded by the server from a jar, when to emit the word that makes a multi-lang bolt's
 * subprocess exit. In a package the server shares with every topology, so the jar's code and the test see one switch.
 * Threading: any thread.
 */
public final class CrashSwitch {
    private static final AtomicBoolean ON = new AtomicBoolean();

    private CrashSwitch() {
    }

    /** Whether the test asked for the crash. */
    public static boolean on() {
        return ON.get();
    }

    static void set(boolean on) {
        ON.set(on);
    }
}
