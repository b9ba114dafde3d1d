package io.microburst.runtime.task;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A topology's debug event sampling as Storm's {@code debug} call sets it (Nimbus' {@code component_debug}): for the
 * whole topology and for single components, whether it is on and at which percentage of emits. A component's own
 * setting wins over the topology's, as in Storm. It belongs to the topology, not to a task's instance: a task whose
 * instance is replaced after a failure, or that a rebalance starts afresh, gets its {@link EmitSampler} from here
 * ({@link #samplerFor}) when its context is made.
 *
 * <p>Thread-safe: requests set it, executor threads read it when they make a task's context.
 */
public final class EventSampling {
    /** Whether sampling is on, and the percentage of emits it keeps (kept when off, as shown back to the UI). */
    public record Setting(boolean enabled, double pct) {
    }

    private static final String WHOLE_TOPOLOGY = "";
    private final Map<String, Setting> settings = new ConcurrentHashMap<>();
    private volatile EmitSampler.Sink sink;

    /**
     * Sets the topology's (component null) or a component's setting, and where sampled emits go from now on. The
     * caller then applies it to the running tasks ({@code EmitSampling.apply}).
     */
    public void set(String component, Setting setting, EmitSampler.Sink sink) {
        this.sink = sink;
        settings.put(component == null ? WHOLE_TOPOLOGY : component, setting);
    }

    /** The setting a component (null: the whole topology) samples with, or null when none was ever set. */
    public Setting of(String component) {
        Setting own = component == null ? null : settings.get(component);
        return own != null ? own : settings.get(WHOLE_TOPOLOGY);
    }

    /** Every setting made, by component; the whole topology's under the empty name. A copy. */
    public Map<String, Setting> all() {
        return new TreeMap<>(settings);
    }

    /** The sampler a task of {@code component} carries now, or null when it samples nothing. */
    public EmitSampler samplerFor(String component) {
        Setting setting = of(component);
        EmitSampler.Sink to = sink;
        return setting != null && setting.enabled() && setting.pct() > 0 && to != null
            ? new EmitSampler(component, setting.pct(), to) : null;
    }
}
