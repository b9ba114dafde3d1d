package io.microburst.it.operatorload;

import io.microburst.MicroburstCluster;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What one {@code /metrics} scrape costs the thread that makes it, on the class path it runs on (this build's, or an
 * older build's for a comparison): twenty paced {@link LoadTopologies} in one cluster, then scrapes with the shared
 * answer's clock moved on each time (so each is a new scrape), first while the topologies run (every histogram has
 * new samples at each scrape), then with all of them deactivated (none has); per phase the answer's size and the
 * median thread CPU time and bytes allocated per scrape. A main for the performance notes, not a test:
 * {@code java -cp CLASSPATH io.microburst.it.operatorload.ScrapeCost [scrapes] [label]}.
 */
public final class ScrapeCost {
    private ScrapeCost() {
    }

    public static void main(String[] args) throws Exception {
        int scrapes = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        String label = args.length > 1 ? args[1] : "this build";
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long me = Thread.currentThread().getId();
        AtomicLong now = new AtomicLong();
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            for (int i = 0; i < 20; i++) {
                cluster.submitTopology("paced-" + i, LoadTopologies.conf(), LoadTopologies.build(i % 2 == 1, 100));
            }
            Thread.sleep(3000); // the topologies' first samples
            Class<?> type = Class.forName("io.microburst.server.web.PrometheusMetrics");
            Constructor<?> make = type.getDeclaredConstructor(MicroburstCluster.class, LongSupplier.class);
            make.setAccessible(true);
            Object metrics = make.newInstance(cluster, (LongSupplier) now::get);
            Method answer = type.getDeclaredMethod("answer");
            answer.setAccessible(true);
            for (String phase : new String[] {"running", "deactivated"}) {
                if (phase.equals("deactivated")) {
                    for (int i = 0; i < 20; i++) {
                        cluster.deactivate("paced-" + i);
                    }
                    Thread.sleep(3000); // trees in flight complete
                }
                long[] cpu = new long[scrapes];
                long[] allocated = new long[scrapes];
                int size = 0;
                for (int i = -10; i < scrapes; i++) { // ten to warm up
                    Thread.sleep(phase.equals("running") ? 500 : 50); // running: new samples in every histogram
                    now.addAndGet(2_000_000_000L);
                    long c = mx.getCurrentThreadCpuTime();
                    long b = mx.getThreadAllocatedBytes(me);
                    size = ((byte[]) answer.invoke(metrics)).length;
                    if (i >= 0) {
                        cpu[i] = mx.getCurrentThreadCpuTime() - c;
                        allocated[i] = mx.getThreadAllocatedBytes(me) - b;
                    }
                }
                Arrays.sort(cpu);
                Arrays.sort(allocated);
                System.out.printf("SCRAPE %s, %s: %d bytes, CPU per scrape median %.2f ms (p10 %.2f, p90 %.2f), "
                    + "allocated median %d KB%n", label, phase, size, cpu[scrapes / 2] / 1e6, cpu[scrapes / 10] / 1e6,
                    cpu[scrapes * 9 / 10] / 1e6, allocated[scrapes / 2] / 1024);
            }
        }
    }
}
