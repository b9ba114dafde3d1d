package io.microburst.server.web;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * This machine and this process in the units Storm's resource fields use: memory in MB, CPU in percent of one core
 * (100 per core). The machine's totals are its physical memory and its cores; the process' use is its heap in use and
 * its recent CPU load. Read at each request, but the machine's memory, read once (in a container the JVM reads it
 * from several cgroup files at each call, which was a twentieth of the REST API's CPU under operator load, and a
 * supervisor's capacity does not change while it runs either); thread-safe.
 */
final class MachineResources {
    private static final double MB = 1024.0 * 1024.0;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final double totalMemoryMb = readTotalMemoryMb();

    double totalMemoryMb() {
        return totalMemoryMb;
    }

    private static double readTotalMemoryMb() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.round(os.getTotalMemorySize() / MB);
        }
        return Math.round(Runtime.getRuntime().maxMemory() / MB);
    }

    double totalCpu() {
        return Runtime.getRuntime().availableProcessors() * 100.0;
    }

    double usedMemoryMb() {
        return Math.round(memory.getHeapMemoryUsage().getUsed() / MB);
    }

    /** Assigned heap: the most this process' heap may grow to. */
    double heapMaxMb() {
        return Math.round(Runtime.getRuntime().maxMemory() / MB);
    }

    double usedCpu() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double load = os.getProcessCpuLoad();
            return load < 0 ? 0 : Math.round(load * totalCpu() * 10) / 10.0;
        }
        return 0;
    }
}
