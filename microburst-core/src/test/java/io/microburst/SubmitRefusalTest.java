package io.microburst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ObjectInputStream;
import org.apache.storm.Config;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Refused at the door, naming the culprit: a component whose deserialization throws, and a configuration that does
 * not survive JSON transport as Storm's LocalCluster judges it (Utils.isValidConf: ints as longs, floats as doubles,
 * nothing else converted).
 */
class SubmitRefusalTest {

    /** Serializes fine; its deserialization throws. */
    public static class Undeserializable extends BaseBasicBolt {
        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            throw new IllegalStateException("cannot be read back (expected by the test)");
        }

        @Override
        public void execute(Tuple input, BasicOutputCollector collector) {
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
        }
    }

    @Test
    void aComponentWhoseDeserializationThrowsIsRefusedAtSubmitByName() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout("undeserializable", 1));
        b.setBolt("unreadable", new Undeserializable()).shuffleGrouping("spout");
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                () -> cluster.submitTopology("undeserializable", new Config(), b.createTopology()));
            assertTrue(e.get_msg().contains("'unreadable'") && e.get_msg().contains("cannot be read back"), e.get_msg());
            assertEquals(0, cluster.getTopologySummaries().size(), "nothing listed");
        }
    }

    @Test
    void aConfigurationThatStormWouldRefuseAsNotJsonSerializableIsRefused() throws Exception {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new ReplayingSpout("json", 1));
        try (MicroburstCluster cluster = new MicroburstCluster()) {
            for (Object value : new Object[] {'c', (short) 5, new StringBuilder("text")}) {
                Config conf = new Config();
                conf.put("user.value", value);
                InvalidTopologyException e = assertThrows(InvalidTopologyException.class,
                    () -> cluster.submitTopology("json", conf, b.createTopology()), "refused: " + value.getClass());
                assertTrue(e.get_msg().contains("'user.value'"), e.get_msg());
            }
            Config fine = new Config();
            fine.put("user.int", 5);
            fine.put("user.double", 0.5);
            fine.put("user.list", java.util.List.of(1, "a", java.util.Map.of("k", 2)));
            cluster.submitTopology("json", fine, b.createTopology());
        }
    }
}
