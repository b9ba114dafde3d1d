package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Recorder;
import io.microburst.it.support.Topologies;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.storm.Config;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Component configuration (getComponentConfiguration, then addConfiguration) merged over the topology configuration as Storm merges
 * it: the component's own keys win, and so do the few Storm keys a component may set per component (max spout pending, tick
 * frequency, debug...); any other Storm key in a component's configuration is ignored.
 */
class ComponentConfigTest extends ClusterTestSupport {
    private Map<String, SeenConf> seen;

    @BeforeEach
    void runTopology() throws Exception {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 50), 1);
        builder.setBolt("configured", new ConfRecordingBolt(scope, true), 1).shuffleGrouping("spout")
            .addConfiguration("it.declared", "from-declarer")
            .addConfiguration("it.overridden", "from-declarer");
        builder.setBolt("plain", new ConfRecordingBolt(scope, false), 1).shuffleGrouping("spout");
        Config conf = Topologies.baseConf();
        conf.put("it.custom", "from-topology");
        conf.put("it.topology-only", "topology");
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 45);
        conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 1000);
        submit("componentconf", conf, builder.createTopology());
        Await.until("both bolts prepared", () -> Recorder.count(scope, SeenConf.class) == 2);
        seen = recorded(SeenConf.class).stream().collect(Collectors.toMap(SeenConf::component, s -> s));
    }

    @Test
    void componentKeysOverrideTopologyKeys() {
        assertEquals("from-component", seen.get("configured").conf().get("it.custom"));
        assertEquals("from-topology", seen.get("plain").conf().get("it.custom"));
    }

    @Test
    void addConfigurationAddsAndOverridesGetComponentConfiguration() {
        assertEquals("from-declarer", seen.get("configured").conf().get("it.declared"));
        assertEquals("from-declarer", seen.get("configured").conf().get("it.overridden"));
        assertNull(seen.get("plain").conf().get("it.declared"), "component keys stay with their component");
    }

    @Test
    void topologyKeysReachEveryComponent() {
        assertEquals("topology", seen.get("configured").conf().get("it.topology-only"));
        assertEquals("topology", seen.get("plain").conf().get("it.topology-only"));
    }

    @Test
    void perComponentStormKeysApplyAndOtherStormKeysAreIgnored() {
        assertEquals(7, ((Number) seen.get("configured").conf().get(Config.TOPOLOGY_MAX_SPOUT_PENDING)).intValue(),
            "max spout pending may be set per component");
        assertEquals(1000, ((Number) seen.get("plain").conf().get(Config.TOPOLOGY_MAX_SPOUT_PENDING)).intValue());
        assertEquals(45, ((Number) seen.get("configured").conf().get(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS)).intValue(),
            "the message timeout is topology-wide: a component's value is ignored");
    }

    /** The configuration keys of interest as one task saw them in prepare. */
    record SeenConf(String component, Map<String, Object> conf) {
    }

    static final class ConfRecordingBolt extends BaseRichBolt {
        private static final List<String> KEYS = List.of("it.custom", "it.declared", "it.overridden", "it.topology-only",
            Config.TOPOLOGY_MAX_SPOUT_PENDING, Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS);
        private final String scope;
        private final boolean withComponentConf;
        private transient OutputCollector collector;

        ConfRecordingBolt(String scope, boolean withComponentConf) {
            this.scope = scope;
            this.withComponentConf = withComponentConf;
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            if (!withComponentConf) {
                return null;
            }
            Map<String, Object> conf = new HashMap<>();
            conf.put("it.custom", "from-component");
            conf.put("it.overridden", "from-component");
            conf.put(Config.TOPOLOGY_MAX_SPOUT_PENDING, 7);
            conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 99);
            return conf;
        }

        @Override
        public void prepare(Map<String, Object> topoConf, TopologyContext context, OutputCollector collector) {
            this.collector = collector;
            Map<String, Object> relevant = new HashMap<>();
            for (String key : KEYS) {
                if (topoConf.get(key) != null) {
                    relevant.put(key, topoConf.get(key));
                }
            }
            Recorder.record(scope, new SeenConf(context.getThisComponentId(), relevant));
        }

        @Override
        public void execute(Tuple input) {
            collector.ack(input);
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }
}
