package io.microburst.cli.display;

import io.microburst.cli.stats.ComponentCounters;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a demo run achieved and cost, measured in-process. Immutable.
 *
 * @param wordsCounted tuples executed by the counting bolt
 * @param wallTime from cluster construction to the last sample
 * @param components all-time totals per component
 * @param liveThreads all live threads in the JVM at the last sample
 * @param engineThreads threads started since just before the cluster was built
 * @param startup cluster construction to first word counted; empty when no word was counted
 * @param coresUsed process CPU time over wall time; negative when unknown
 * @param residentBytes resident memory when readable
 */
public record RunSummary(String topologyName, long wordsCounted, Duration wallTime, List<ComponentCounters> components,
                         int liveThreads, int engineThreads, Optional<Duration> startup, double coresUsed,
                         OptionalLong residentBytes) {
    public RunSummary {
        components = List.copyOf(components);
    }

    /** Words counted per second of wall time (including start-up). */
    public double wordsPerSecond() {
        double seconds = wallTime.toNanos() / 1e9;
        return seconds > 0 ? wordsCounted / seconds : 0;
    }
}
