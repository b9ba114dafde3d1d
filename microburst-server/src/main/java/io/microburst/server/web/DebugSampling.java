package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.runtime.task.EventSampling;
import io.microburst.runtime.topology.EmitSampling;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.storm.generated.DebugOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;

/**
 * Storm's debug operations, one per server, shared by Nimbus' Thrift calls and the UI REST API: event sampling
 * ({@code debug}, {@code debug/enable|disable/PCT}), kept by the topology ({@link EventSampling}: task restarts and
 * rebalances keep it), saved with the topology ({@link Saved}) and applied again when a restarted server restores it,
 * its sampled emits written by {@link EventLogs}; and the worker profiler ({@link #profiler()},
 * {@link ProfileRequests}). Thread-safe; changes
 * of one topology are serialised by the caller (Nimbus).
 */
public final class DebugSampling {
    /** Storm's UI shows 10% when debug was never set. */
    static final double DEFAULT_PCT = 10;

    /** Where a topology's settings are kept across server restarts, by topology name. */
    public interface Saved {
        void saveDebug(String name, Map<String, EventSampling.Setting> settings) throws IOException;

        /** The saved settings (the whole topology's under the empty name); empty when none. */
        Map<String, EventSampling.Setting> loadDebug(String name) throws IOException;
    }

    private final MicroburstCluster cluster;
    private final EventLogs events;
    private final Saved saved;
    private final Profiler profiler;
    private final ProfileRequests profileRequests;

    /** @param artifacts the folder the logviewer serves ({@code ID/PORT/worker.log}), where events.log goes */
    public DebugSampling(MicroburstCluster cluster, Path artifacts, Saved saved) {
        this.cluster = cluster;
        this.events = new EventLogs(artifacts);
        this.saved = saved;
        this.profiler = new Profiler(cluster, artifacts);
        this.profileRequests = new ProfileRequests(profiler);
    }

    /** Nimbus' profiling calls, on the same {@link #profiler()} as the REST API's. */
    public ProfileRequests profileRequests() {
        return profileRequests;
    }

    /** The server's one worker profiler, shared by Nimbus' profiling calls and the REST API's. */
    Profiler profiler() {
        return profiler;
    }

    /**
     * Nimbus' {@code debug}: {@code name} is the topology's name; component null or empty for all of it. The
     * percentage is bounded to 0..100, as Storm's Nimbus does.
     */
    public void debug(Nimbus.Iface nimbus, String name, String component, boolean enable, double pct)
        throws TException {
        String topology = nimbus.getTopologyInfo(nimbus.getTopologySummaryByName(name).get_id()).get_name();
        String target = component == null || component.isEmpty() ? null : component;
        apply(topology, target, new EventSampling.Setting(enable, Math.max(0, Math.min(100, pct))));
        try {
            saved.saveDebug(topology, cluster.getEventSampling(topology).all());
        } catch (IOException e) {
            throw new TApplicationException(TApplicationException.INTERNAL_ERROR, "cannot store the debug options of '"
                + topology + "': " + e.getMessage());
        }
    }

    /** Applies the saved settings of a topology a restarted server has just started again. */
    public void restore(String name) throws IOException, NotAliveException {
        for (Map.Entry<String, EventSampling.Setting> e : saved.loadDebug(name).entrySet()) {
            apply(name, e.getKey().isEmpty() ? null : e.getKey(), e.getValue());
        }
    }

    private void apply(String name, String component, EventSampling.Setting setting) throws NotAliveException {
        TopologyInfo info = cluster.getTopologyInfoByName(name);
        EventSampling sampling = cluster.getEventSampling(name);
        sampling.set(component, setting, events.sink(info.get_id(), TopologyHost.port(info)));
        EmitSampling.apply(cluster.getThreadViews(name), sampling);
    }

    /** The options a topology (component null) or component shows, in Thrift's form. */
    public DebugOptions options(String topologyId, String component) throws NotAliveException {
        EventSampling.Setting o = of(topologyId, component);
        DebugOptions options = new DebugOptions();
        options.set_enable(o.enabled());
        options.set_samplingpct(o.pct());
        return options;
    }

    /** The setting a topology (component null) or component samples with; off at 10% when never set. */
    EventSampling.Setting of(String topologyId, String component) throws NotAliveException {
        String name = cluster.getTopologySummary(topologyId).get_name();
        EventSampling.Setting setting = cluster.getEventSampling(name).of(component);
        return setting != null ? setting : new EventSampling.Setting(false, DEFAULT_PCT);
    }
}
