package io.microburst.it.soak;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.TopologyInfo;

/**
 * The throughput row: the full-speed Java topologies' acked trees per second in quiet phases (no operator, no
 * scrape) and in phases where the scraper runs with no interval, the operators with no pause, or both (hammered),
 * interleaved so that a machine shared with other work drifts all alike. Runs on the test's thread, holding the
 * operators' lock through each phase they sit out.
 */
final class ThroughputPhases {
    private final SoakClient client;
    private final SoakOperators operators;
    private final SoakScraper scraper;
    private final Path fastFlag;
    /** Per phase kind, the rates measured, in the order run. */
    private final Map<Kind, List<Double>> rates = new EnumMap<>(Kind.class);
    /** Per phase kind, the cores the server's process and this process (the clients) used, summed over phases. */
    private final Map<Kind, double[]> cores = new EnumMap<>(Kind.class);
    private final SoakServer server;
    private final com.sun.management.OperatingSystemMXBean self =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    /** What runs beside the measured topologies in a phase. */
    enum Kind {
        QUIET(false, false), SCRAPED(true, false), OPERATED(false, true), HAMMERED(true, true);

        final boolean scrape;
        final boolean operate;

        Kind(boolean scrape, boolean operate) {
            this.scrape = scrape;
            this.operate = operate;
        }
    }

    ThroughputPhases(SoakServer server, SoakClient client, SoakOperators operators, SoakScraper scraper,
                     Path fastFlag) {
        this.server = server;
        this.client = client;
        this.operators = operators;
        this.scraper = scraper;
        this.fastFlag = fastFlag;
        for (Kind kind : Kind.values()) {
            rates.put(kind, new ArrayList<>());
            cores.put(kind, new double[2]);
        }
    }

    /**
     * After a warm-up at full speed, {@code rounds} times a phase of each kind, {@code seconds} each: quiet, scraped
     * only (no pause between scrapes), operated only (no pause between operations), both.
     */
    void run(int rounds, int seconds) throws Exception {
        Files.writeString(fastFlag, "fast");
        try {
            phase(Kind.QUIET, 2 * seconds); // warm-up: the JIT, the queues, the placement
            rates.get(Kind.QUIET).clear();
            cores.put(Kind.QUIET, new double[2]);
            for (int i = 0; i < rounds; i++) {
                for (Kind kind : Kind.values()) {
                    phase(kind, seconds);
                }
            }
        } finally {
            Files.deleteIfExists(fastFlag);
        }
    }

    private void phase(Kind kind, int seconds) throws Exception {
        if (!kind.operate) {
            operators.lock.lock();
        }
        operators.hammer = kind.operate;
        scraper.hammer = kind.scrape;
        scraper.paused = !kind.scrape;
        try {
            rates.get(kind).add(rate(seconds, cores.get(kind)));
        } finally {
            operators.hammer = false;
            scraper.hammer = false;
            scraper.paused = false;
            if (!kind.operate) {
                operators.lock.unlock();
            }
        }
    }

    List<Double> rates(Kind kind) {
        return rates.get(kind);
    }

    /** A kind's trees acked per second over the quiet phases': the sums of all phases of each. */
    double ratio(Kind kind) {
        return sum(rates.get(kind)) / sum(rates.get(Kind.QUIET));
    }

    /** Whether the hammered phases' mean rate is at least half the slowest quiet phase's (the failing bound). */
    boolean hammeredHoldsHalfOfSlowestQuiet() {
        List<Double> hammered = rates.get(Kind.HAMMERED);
        double slowestQuiet = rates.get(Kind.QUIET).stream().mapToDouble(Double::doubleValue).min().orElse(0);
        return sum(hammered) / hammered.size() >= slowestQuiet / 2;
    }

    private static double sum(List<Double> list) {
        return list.stream().mapToDouble(Double::doubleValue).sum();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Kind kind : Kind.values()) {
            out.append(kind.name().toLowerCase()).append(' ').append(rates.get(kind).stream()
                .map(r -> String.format("%.0f", r)).toList());
            double phases = rates.get(kind).size();
            out.append(String.format(" (%sserver %.2f cores, clients %.2f cores)", kind == Kind.QUIET ? ""
                : String.format("%.3f of quiet; ", ratio(kind)), cores.get(kind)[0] / phases,
                cores.get(kind)[1] / phases));
            out.append(kind == Kind.HAMMERED ? "" : "; ");
        }
        return out.toString();
    }

    private double rate(int seconds, double[] coresUsed) throws Exception {
        long before = acked();
        long serverCpu = server.cpuMillis();
        long clientCpu = self.getProcessCpuTime();
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L); // the measured phase's length
        long after = acked();
        double elapsed = (System.nanoTime() - start) / 1e9;
        coresUsed[0] += (server.cpuMillis() - serverCpu) / 1e3 / elapsed;
        coresUsed[1] += (self.getProcessCpuTime() - clientCpu) / 1e9 / elapsed;
        return (after - before) / elapsed;
    }

    /** Trees acked by the full-speed topologies' spouts since they started, from Storm's executor statistics. */
    private long acked() throws Exception {
        long sum = 0;
        for (int i = 0; i < SoakTopologies.FAST; i++) {
            String name = SoakTopologies.fastName(i);
            TopologyInfo info = client.nimbus(n -> n.getTopologyInfo(client.topologies().get(name).get_id()));
            for (ExecutorSummary e : info.get_executors()) {
                ExecutorStats stats = e.get_stats();
                if (!"spout".equals(e.get_component_id()) || stats == null || !stats.get_specific().is_set_spout()) {
                    continue;
                }
                Map<String, Long> allTime = stats.get_specific().get_spout().get_acked().get(":all-time");
                if (allTime != null) {
                    sum += allTime.values().stream().mapToLong(Long::longValue).sum();
                }
            }
        }
        return sum;
    }
}
