package io.microburst.cli.stats;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/** What this JVM process costs: CPU time, threads, resident memory. Stateless; safe from any thread. */
public final class ProcessMetrics {
    private static final Path PROC_STATUS = Path.of("/proc/self/status");

    private ProcessMetrics() {
    }

    /** CPU time used by the whole process so far, in nanoseconds, or -1 where the JVM cannot tell. */
    public static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean hotspot) {
            return hotspot.getProcessCpuTime();
        }
        return -1;
    }

    /** Cores kept busy on average: CPU time over wall time; negative when CPU time is unknown. */
    public static double coresUsed(long cpuNanos, long wallNanos) {
        if (cpuNanos < 0 || wallNanos <= 0) {
            return -1;
        }
        return (double) cpuNanos / wallNanos;
    }

    /** Ids of the threads alive now. */
    public static Set<Long> liveThreadIds() {
        Set<Long> ids = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            ids.add(thread.getId());
        }
        return ids;
    }

    /** Threads alive now that were not in {@code baseline} and do not belong to the JVM's own system group. */
    public static int threadsStartedSince(Set<Long> baseline) {
        int count = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            ThreadGroup group = thread.getThreadGroup();
            boolean jvmInternal = group != null && "system".equals(group.getName());
            if (!baseline.contains(thread.getId()) && !jvmInternal) {
                count++;
            }
        }
        return count;
    }

    /** Live threads in the JVM, including daemon and JVM-internal ones. */
    public static int liveThreadCount() {
        return ManagementFactory.getThreadMXBean().getThreadCount();
    }

    /** Resident memory of this process in bytes, when {@code /proc/self/status} is readable. */
    public static OptionalLong residentBytes() {
        try {
            return residentBytes(Files.readAllLines(PROC_STATUS));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return OptionalLong.empty();
        }
    }

    /** Parses the {@code VmRSS:  12345 kB} line of a {@code /proc/<pid>/status} file. */
    static OptionalLong residentBytes(List<String> statusLines) {
        for (String line : statusLines) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                try {
                    long value = Long.parseLong(parts[0]);
                    return OptionalLong.of(parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value);
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }
}
