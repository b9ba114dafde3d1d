package io.microburst.compat;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.MicroburstCluster;
import io.microburst.ReplayingSpout;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.task.ShellBolt;
import org.apache.storm.topology.IRichBolt;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * A ShellBolt whose subprocess dies is replaced at once, as a Storm worker exits and restarts: storm-client's ShellBolt
 * does not exit in local mode, and its reader thread would otherwise report the death over and over until a tuple
 * reached the dead instance. Its tuple is replayed and acked by the next instance.
 */
class ShellBoltDeathTest {

    public static class DiesOnce extends ShellBolt implements IRichBolt {
        public DiesOnce() {
            super("python3", "dies_once_bolt.py");
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }

        @Override
        public Map<String, Object> getComponentConfiguration() {
            return null;
        }
    }

    @Test
    void aDeadSubprocessIsReplacedAtOnceAndItsTupleReplayed() throws Exception {
        assumeTrue(MultiLangTest.pythonAvailable(), "python3 is not installed");
        String run = "shell-dies";
        ReplayingSpout.ACKED.remove(run); // a fresh start when the test runs again in the same JVM
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout(run, 5));
        b.setBolt("dies", new DiesOnce()).shuffleGrouping("spout");
        Config conf = new Config();
        conf.put(Config.TOPOLOGY_MESSAGE_TIMEOUT_SECS, 120); // the tuple must come back through the restart, not a timeout
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            cluster.submitTopology(run, conf, b.createTopology());
            ReplayingSpout.await("every id acked", 60, () -> ReplayingSpout.acked(run).size() == 5);
            List<ErrorInfo> errors = cluster.getTopologyInfoByName(run).get_errors().get("dies");
            assertTrue(errors != null && !errors.isEmpty(), "the death is reported");
        }
    }
}
