package io.microburst.it.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.microburst.it.support.Await;
import io.microburst.it.support.ClusterTestSupport;
import io.microburst.it.support.CollectingBolt;
import io.microburst.it.support.LifecycleEvent;
import io.microburst.it.support.PacedSpout;
import io.microburst.it.support.Topologies;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;

/** Invalid topologies are refused at submit, with a message naming what is wrong, and nothing of them starts. */
class ValidationTest extends ClusterTestSupport {

    @Test
    void subscriptionToAnUnknownComponent() throws Exception {
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("ghost");
        assertRefused(builder.createTopology(), Topologies.baseConf(), "ghost");
    }

    @Test
    void subscriptionToAnUndeclaredStream() throws Exception {
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout", "nostream");
        assertRefused(builder.createTopology(), Topologies.baseConf(), "nostream");
    }

    @Test
    void fieldsGroupingOnAnUndeclaredField() throws Exception {
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("sink", new CollectingBolt(scope), 1).fieldsGrouping("spout", new Fields("nofield"));
        assertRefused(builder.createTopology(), Topologies.baseConf(), "nofield");
    }

    @Test
    void invalidConfigurationValue() throws Exception {
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        Config conf = Topologies.baseConf();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, "soon");
        // Storm names the Java constant (TOPOLOGY_MESSAGE_TIMEOUT_SECS), which names the key as well as the key itself does.
        assertRefused(builder.createTopology(), conf, "TOPOLOGY_MESSAGE_TIMEOUT_SECS");
    }

    @Test
    void invalidTopologyName() throws Exception {
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        Exception refusal = assertThrows(Exception.class,
            () -> cluster.submitTopology("bad/name", Topologies.baseConf(), builder.createTopology()));
        assertRefusal(refusal, "bad/name");
    }

    @Test
    void duplicateTopologyName() throws Exception {
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("sink", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        String name = submit("duplicate", Topologies.baseConf(), builder.createTopology());
        Await.until("the first topology to run", () -> !recorded(LifecycleEvent.class).isEmpty());
        assertThrows(AlreadyAliveException.class, () -> cluster.submitTopology(name, Topologies.baseConf(), builder.createTopology()));
    }

    @Test
    void noSpouts() throws Exception {
        assumeMicroburst("Storm accepts a topology without spouts");
        TopologyBuilder builder = new TopologyBuilder();
        builder.setBolt("lonely", new CollectingBolt(scope), 1);
        assertRefused(builder.createTopology(), Topologies.baseConf(), "spout");
    }

    @Test
    void parallelismBelowOne() throws Exception {
        assumeMicroburst("TopologyBuilder refuses it; Storm's server does not check a topology built otherwise");
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("zero", new CollectingBolt(scope), 1).shuffleGrouping("spout");
        StormTopology topology = builder.createTopology();
        topology.get_bolts().get("zero").get_common().set_parallelism_hint(0);
        assertRefused(topology, Topologies.baseConf(), "zero");
    }

    @Test
    void taskCountBelowOne() throws Exception {
        assumeMicroburst("Storm runs a component with zero tasks as no tasks at all");
        TopologyBuilder builder = spoutOnly();
        builder.setBolt("notasks", new CollectingBolt(scope), 1).setNumTasks(0).shuffleGrouping("spout");
        assertRefused(builder.createTopology(), Topologies.baseConf(), "notasks");
    }

    private TopologyBuilder spoutOnly() {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout("spout", new PacedSpout(scope, 10), 1);
        return builder;
    }

    /** Submits, expects a refusal naming {@code named}, then checks that no task of the topology ever starts. */
    private void assertRefused(StormTopology topology, Map<String, Object> conf, String named) throws Exception {
        String name = Topologies.uniqueName("invalid");
        // A runtime that wrongly accepts the topology must still have it stopped after the test.
        killAfterTest(name);
        try {
            cluster.submitTopology(name, conf, topology);
            fail("the topology was accepted; expected a refusal naming " + named);
        } catch (InvalidTopologyException | IllegalArgumentException refusal) {
            assertRefusal(refusal, named);
        }
        assertFalse(Topologies.isListed(cluster, name), "a refused topology must not be listed");
        Await.never("a task of a refused topology starting", () -> !recorded(LifecycleEvent.class).isEmpty(), Duration.ofSeconds(1));
    }

    private static void assertRefusal(Exception refusal, String named) {
        assertTrue(refusal instanceof InvalidTopologyException || refusal instanceof IllegalArgumentException,
            "expected InvalidTopologyException or IllegalArgumentException, got " + refusal);
        String message = refusal instanceof InvalidTopologyException ? ((InvalidTopologyException) refusal).get_msg() : refusal.getMessage();
        if (message == null) {
            message = refusal.getMessage();
        }
        assertTrue(message != null && normalized(message).contains(normalized(named)), "the message must name " + named + ": " + message);
    }

    /** Configuration keys may be named as keys (topology.message.timeout.secs) or as Config constants (TOPOLOGY_MESSAGE_...). */
    private static String normalized(String text) {
        return text.replace('.', '_').toUpperCase(Locale.ROOT);
    }
}
