package io.microburst.cli.local;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologyInfo;

/**
 * Waits out a local run while watching its topologies: a topology that leaves the cluster although nobody killed it
 * was halted by the runtime (a task failed too often), and the run must end with an error that says why. The last
 * errors its tasks reported are kept from the previous look, since a halted topology's information goes with it.
 *
 * <p>Confined to the thread that calls {@link #awaitHaltOrEnd}.
 */
final class HaltWatch {
    private static final long POLL_MILLIS = 200;

    private final ILocalCluster cluster;
    private final Supplier<Set<String>> expected;
    /** Per topology, the latest error each component reported, as last seen. */
    private final Map<String, Map<String, String>> lastErrors = new HashMap<>();

    /**
     * @param expected the topologies that should be running (those submitted and not killed on purpose)
     */
    HaltWatch(ILocalCluster cluster, Supplier<Set<String>> expected) {
        this.cluster = cluster;
        this.expected = expected;
    }

    /**
     * Returns after {@code duration} (forever when empty) with nothing, or as soon as an expected topology is gone,
     * with a message naming it and the last errors its tasks reported.
     */
    Optional<String> awaitHaltOrEnd(Optional<Duration> duration) throws InterruptedException {
        long deadline = duration.map(d -> System.nanoTime() + d.toNanos()).orElse(Long.MAX_VALUE);
        while (duration.isEmpty() || deadline - System.nanoTime() > 0) {
            for (String name : expected.get()) {
                if (!look(name)) {
                    return Optional.of(describeHalt(name));
                }
            }
            long left = duration.isEmpty() ? POLL_MILLIS
                    : Math.min(POLL_MILLIS, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
            if (left > 0) {
                Thread.sleep(left);
            }
        }
        return Optional.empty();
    }

    /** Records the topology's latest errors; false when it is no longer running (gone, or halted). */
    private boolean look(String name) {
        TopologyInfo info;
        try {
            info = cluster.getTopologyInfoByName(name);
        } catch (NotAliveException gone) {
            return false;
        } catch (Exception e) {
            return true; // a cluster that cannot answer this question is not telling us the topology stopped
        }
        if (info.get_errors() != null) {
            Map<String, String> latest = lastErrors.computeIfAbsent(name, n -> new HashMap<>());
            for (Map.Entry<String, java.util.List<ErrorInfo>> e : info.get_errors().entrySet()) {
                if (!e.getValue().isEmpty()) {
                    latest.put(e.getKey(), firstLine(e.getValue().get(e.getValue().size() - 1).get_error()));
                }
            }
        }
        // a halted topology stays listed, with its reason among its errors, until it is killed
        return !"HALTED".equals(info.get_status());
    }

    private String describeHalt(String name) {
        StringBuilder text = new StringBuilder("topology ").append(name)
                .append(" stopped by itself (halted after repeated task failures; see the log above)");
        Map<String, String> errors = lastErrors.getOrDefault(name, Map.of());
        if (!errors.isEmpty()) {
            text.append("; last errors:");
            errors.forEach((component, error) -> text.append(System.lineSeparator()).append("  ")
                    .append(component).append(": ").append(error));
        }
        return text.toString();
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline).trim();
    }
}
