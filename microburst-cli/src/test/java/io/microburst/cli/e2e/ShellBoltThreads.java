package io.microburst.cli.e2e;

import java.util.List;
import java.util.Map;

/**
 * The live reader threads of storm-client's ShellBolts in this JVM, found by their stacks (storm-client does not name
 * them): one per running multi-lang bolt task, ending once its subprocess is gone and whatever it had to log is logged.
 * Threading: any thread.
 */
final class ShellBoltThreads {
    private static final String READER = "org.apache.storm.task.ShellBolt$BoltReaderRunnable";

    private ShellBoltThreads() {
    }

    static List<Thread> readers() {
        return Thread.getAllStackTraces().entrySet().stream().filter(e -> isReader(e.getValue()))
            .map(Map.Entry::getKey).toList();
    }

    private static boolean isReader(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            if (frame.getClassName().equals(READER)) {
                return true;
            }
        }
        return false;
    }
}
