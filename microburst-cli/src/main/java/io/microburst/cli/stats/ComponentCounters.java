package io.microburst.cli.stats;

/**
 * All-time counters of one component, summed over its executors.
 *
 * @param emitted tuples emitted on user streams (system streams, named {@code __...}, excluded)
 * @param executed tuples executed (bolts; always 0 for spouts)
 */
public record ComponentCounters(String componentId, ComponentKind kind, int executors, long emitted, long executed) {
}
