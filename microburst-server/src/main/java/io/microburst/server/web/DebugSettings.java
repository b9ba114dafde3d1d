package io.microburst.server.web;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Storm's debug options as the UI sets them ({@code POST .../debug/enable|disable/PCT}, for a topology or one of its
 * components) and shows them back ({@code debug}, {@code samplingPct}): per topology id, and per component, whether
 * event logging is on and the percentage of tuples it samples. A component without its own setting shows its
 * topology's. Thread-safe: requests set and read it concurrently.
 */
final class DebugSettings {
    /** Storm's UI shows 10% when debug was never set. */
    static final double DEFAULT_PCT = 10;
    private static final String WHOLE_TOPOLOGY = "";

    /** The options of a topology or component. */
    record Options(boolean enabled, double samplingPct) {
    }

    private final Map<String, Map<String, Options>> byTopology = new ConcurrentHashMap<>();

    void set(String topologyId, String component, boolean enabled, double samplingPct) {
        byTopology.computeIfAbsent(topologyId, t -> new ConcurrentHashMap<>())
            .put(component == null ? WHOLE_TOPOLOGY : component, new Options(enabled, samplingPct));
    }

    Options of(String topologyId, String component) {
        Map<String, Options> options = byTopology.getOrDefault(topologyId, Map.of());
        Options own = component == null ? null : options.get(component);
        return own != null ? own : options.getOrDefault(WHOLE_TOPOLOGY, new Options(false, DEFAULT_PCT));
    }
}
