package io.microburst.runtime.topology;

import io.microburst.plan.TopologyPlan;
import java.util.Map;
import org.apache.storm.generated.StormTopology;

/**
 * A running topology's configuration and topology as Nimbus keeps them: as submitted until a rebalance overrides
 * some of the configuration ({@code topology_conf_overrides}) or the resources ({@code topology_resources_overrides}).
 *
 * <p>Threading: any thread; each value is replaced whole.
 */
public final class StoredSubmission {
    private final TopologyPlan plan;
    private volatile Map<String, Object> conf;
    private volatile StormTopology topology;

    StoredSubmission(TopologyPlan plan) {
        this.plan = plan;
    }

    public Map<String, Object> conf() {
        Map<String, Object> c = conf;
        return c != null ? c : plan.conf();
    }

    public void storeConf(Map<String, Object> value) {
        conf = value;
    }

    public StormTopology topology() {
        StormTopology t = topology;
        return t != null ? t : plan.topology();
    }

    public void storeTopology(StormTopology value) {
        topology = value;
    }
}
