package io.microburst.cluster;

import io.microburst.runtime.topology.TopologyRuntime;
import java.util.Map;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.RebalanceOptions;

/**
 * Nimbus's commands on a listed topology (kill, activate, deactivate, rebalance), with their options read as Nimbus
 * reads them: an unset wait is the topology's message timeout, unset executor counts change nothing, and a
 * rebalance's configuration and resource overrides ({@link RebalanceOverrides}) are stored when the new executors
 * start.
 *
 * <p>Threading: any thread; each command only asks the topology's runtime, which returns at once unless said.
 */
public final class TopologyCommands {
    private final TopologyTable topologies;

    public TopologyCommands(TopologyTable topologies) {
        this.topologies = topologies;
    }

    /**
     * Kills as Storm does: the spouts are deactivated at once and the topology is listed as KILLED; work in flight
     * goes on for wait_secs (default: the topology's message timeout), then every task is closed or cleaned up and
     * the topology is unlisted. With a wait this returns at once; with {@code wait_secs} 0 it returns once all has
     * stopped.
     */
    public void kill(String name, KillOptions options) throws NotAliveException {
        TopologyRuntime runtime = topologies.byName(name);
        int wait = options != null && options.is_set_wait_secs() ? options.get_wait_secs()
            : runtime.plan().defaultWaitSecs();
        runtime.kill(wait, () -> topologies.forget(runtime));
    }

    public void setActive(String name, boolean active) throws NotAliveException {
        topologies.byName(name).setActive(active);
    }

    /**
     * Changes executor counts per component, each between 1 and the component's task count, after wait_secs
     * (default: the message timeout) with the spouts deactivated, as Storm does; returns at once. The number of
     * workers has no meaning in one process and is ignored. As Nimbus, the topology_conf_overrides and
     * topology_resources_overrides change, when the new executors start, the configuration and topology the cluster
     * shows; the components keep running with the configuration they were submitted with.
     *
     * @throws InvalidTopologyException when a count is out of its component's range or the overrides are not JSON
     */
    public void rebalance(String name, RebalanceOptions options) throws NotAliveException, InvalidTopologyException {
        TopologyRuntime runtime = topologies.byName(name);
        Map<String, Integer> counts = options == null || options.get_num_executors() == null
            ? Map.of() : options.get_num_executors();
        runtime.plan().checkRebalance(counts);
        int wait = options != null && options.is_set_wait_secs() ? options.get_wait_secs()
            : runtime.plan().defaultWaitSecs();
        Map<String, Object> confOverrides = options == null || !options.is_set_topology_conf_overrides() ? Map.of()
            : RebalanceOverrides.confOverrides(name, options.get_topology_conf_overrides());
        Map<String, Map<String, Double>> resources = options == null || !options.is_set_topology_resources_overrides()
            ? Map.of() : options.get_topology_resources_overrides();
        // as Nimbus, when the new executors start
        runtime.rebalance(counts, wait, () -> {
            if (!resources.isEmpty()) {
                runtime.stored().storeTopology(RebalanceOverrides.withResources(runtime.stored().topology(), resources));
            }
            if (!confOverrides.isEmpty()) {
                runtime.stored().storeConf(RebalanceOverrides.withConf(runtime.stored().conf(), confOverrides));
            }
        });
    }
}
