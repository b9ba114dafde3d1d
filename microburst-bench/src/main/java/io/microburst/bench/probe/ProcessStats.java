package io.microburst.bench.probe;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads the resources this JVM uses: CPU time, live threads, resident memory. Stateless; any thread. */
public final class ProcessStats {
    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    private ProcessStats() {
    }

    /** CPU time used by all threads of this process so far, in nanoseconds, or -1 if the platform does not say. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** Live threads of this JVM, daemon or not. */
    public static int liveThreads() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Resident set size in bytes from {@code /proc/self/status}, or -1 where there is no procfs. */
    public static long residentBytes() {
        try {
            return parseVmRssBytes(Files.readAllLines(PROC_STATUS));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The {@code VmRSS:} line of a procfs status file, in bytes; -1 if absent. */
    static long parseVmRssBytes(List<String> statusLines) {
        for (String line : statusLines) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                long kib = Long.parseLong(parts[0]);
                return kib * 1024;
            }
        }
        return -1;
    }
}
