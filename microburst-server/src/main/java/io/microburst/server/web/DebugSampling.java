package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import java.nio.file.Path;
import org.apache.storm.generated.DebugOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TException;

/**
 * Storm's debug event sampling, one per server, shared by Nimbus' Thrift {@code debug} call and the UI REST API's
 * {@code debug/enable|disable/PCT}: turns sampling on or off ({@link EventLogs}) and remembers the options shown back
 * ({@link DebugSettings}; Thrift's {@code DebugOptions} of the page infos). Thread-safe.
 */
public final class DebugSampling {
    private final DebugSettings settings = new DebugSettings();
    private final EventLogs events;

    /** @param artifacts the folder the logviewer serves ({@code ID/PORT/worker.log}), where events.log goes */
    public DebugSampling(MicroburstCluster cluster, Path artifacts) {
        this.events = new EventLogs(cluster, artifacts);
    }

    /** Nimbus' {@code debug}: {@code name} is the topology's name (or id); component null for all of it. */
    public void debug(Nimbus.Iface nimbus, String name, String component, boolean enable, double pct)
        throws TException {
        String id = nimbus.getTopologySummaryByName(name).get_id();
        TopologyInfo info = nimbus.getTopologyInfo(id);
        events.sample(id, info.get_name(), TopologyHost.port(info), component, enable ? pct : 0);
        settings.set(id, component, enable, pct);
    }

    /** The options a topology (component null) or component shows, in Thrift's form. */
    public DebugOptions options(String topologyId, String component) {
        DebugSettings.Options o = settings.of(topologyId, component);
        DebugOptions options = new DebugOptions();
        options.set_enable(o.enabled());
        options.set_samplingpct(o.samplingPct());
        return options;
    }

    DebugSettings.Options of(String topologyId, String component) {
        return settings.of(topologyId, component);
    }
}
