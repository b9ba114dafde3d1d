package io.microburst.it.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.it.support.Recorder;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.trident.Stream;
import org.apache.storm.trident.TridentTopology;
import org.apache.storm.trident.operation.BaseFilter;
import org.apache.storm.trident.testing.CountAsAggregator;
import org.apache.storm.trident.testing.FixedBatchSpout;
import org.apache.storm.trident.tuple.TridentTuple;
import org.apache.storm.trident.windowing.InMemoryWindowsStoreFactory;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;
import org.junit.jupiter.api.Test;

/**
 * Trident beyond the basics, as Storm's examples use it (min/max by comparator, tumbling and sliding count windows with
 * an in-memory window store), submitted with the ZooKeeper digest that {@code StormSubmitter} adds to every topology's
 * configuration: both runtimes drop it as Nimbus does when their ZooKeeper has no authentication, run the topology and
 * give the same results.
 */
class TridentParityTest extends ParityTestSupport {
    private static final int BATCH = 3;
    private static final Values[] DEVICES = {
        new Values("d1", 40), new Values("d2", 7), new Values("d3", 19),
        new Values("d4", 3), new Values("d5", 88), new Values("d6", 51),
        new Values("d7", 12), new Values("d8", 12), new Values("d9", 64),
    };

    /** Records each tuple that passes as "label values". */
    public static class Record extends BaseFilter {
        private final String scope;
        private final String label;

        public Record(String scope, String label) {
            this.scope = scope;
            this.label = label;
        }

        @Override
        public boolean isKeep(TridentTuple tuple) {
            List<Object> values;
            try {
                values = new ArrayList<>(tuple.getValues());
            } catch (NullPointerException noValues) {
                // Storm's min/max aggregators emit a tuple without values for an empty batch (once the spout has
                // nothing more to send); reading it throws, on Storm as here.
                return false;
            }
            Recorder.record(scope, label + " " + values);
            return true;
        }
    }

    /** Orders devices by reading, then by name. */
    public static class ByReading implements Comparator<TridentTuple>, Serializable {
        @Override
        public int compare(TridentTuple a, TridentTuple b) {
            int byReading = Integer.compare(a.getIntegerByField("reading"), b.getIntegerByField("reading"));
            return byReading != 0 ? byReading : a.getStringByField("device").compareTo(b.getStringByField("device"));
        }
    }

    @Test
    void minMaxByComparatorAndCountWindowsGiveTheSameResultsOnBothRuntimes() throws Exception {
        Config conf = new Config();
        conf.setNumWorkers(1);
        // What StormSubmitter.submitTopology adds to every topology's configuration.
        conf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_SCHEME, "digest");
        conf.put(Config.STORM_ZOOKEEPER_TOPOLOGY_AUTH_PAYLOAD, "4711:0123456789abcdef");
        // 3 batches: min, max, minBy, maxBy once each; 3 tumbling windows of 3; sliding windows of 6 every 3: 2 full.
        Predicate<List<Object>> done = events -> count(events, "min") == 3 && count(events, "max") == 3
            && count(events, "minBy") == 3 && count(events, "maxBy") == 3 && count(events, "tumbling") == 3
            && count(events, "sliding") >= 3;
        Map<String, Run> runs = runOnBoth("trident-minmax-windows", TridentParityTest::topology, conf, done,
            Duration.ofSeconds(90));
        List<String> storm = sorted(runs.get("storm").events());
        List<String> microburst = sorted(runs.get("microburst").events());
        assertEquals(List.of("max [d1, 40]", "max [d5, 88]", "max [d9, 64]"), filter(storm, "max "), "Storm's own answer");
        assertEquals(filter(storm, "min"), filter(microburst, "min"));
        assertEquals(filter(storm, "max"), filter(microburst, "max"));
        assertEquals(filter(storm, "tumbling"), filter(microburst, "tumbling"));
        assertEquals(List.of("tumbling [3]", "tumbling [3]", "tumbling [3]"), filter(microburst, "tumbling"));
        // The first sliding windows hold 3 and 6 tuples on both; how many more fire before the kill depends on timing.
        assertEquals(filter(storm, "sliding").subList(0, 2), filter(microburst, "sliding").subList(0, 2));
    }

    private static StormTopology topology(String scope) {
        TridentTopology trident = new TridentTopology();
        FixedBatchSpout spout = new FixedBatchSpout(new Fields("device", "reading"), BATCH, DEVICES);
        // As Storm's TridentMinMaxOf* examples: a step on the spout's stream, then the branches.
        Stream devices = trident.newStream("devices-" + scope.hashCode(), spout)
            .each(new Fields("device", "reading"), new Record(scope, "device"));
        devices.min(new ByReading()).each(new Fields("device", "reading"), new Record(scope, "min"));
        devices.max(new ByReading()).each(new Fields("device", "reading"), new Record(scope, "max"));
        devices.minBy("reading").each(new Fields("device", "reading"), new Record(scope, "minBy"));
        devices.maxBy("reading").each(new Fields("device", "reading"), new Record(scope, "maxBy"));
        devices.tumblingWindow(BATCH, new InMemoryWindowsStoreFactory(), new Fields("device", "reading"),
            new CountAsAggregator(), new Fields("count")).each(new Fields("count"), new Record(scope, "tumbling"));
        devices.slidingWindow(2 * BATCH, BATCH, new InMemoryWindowsStoreFactory(), new Fields("device", "reading"),
            new CountAsAggregator(), new Fields("count")).each(new Fields("count"), new Record(scope, "sliding"));
        return trident.build();
    }

    private static long count(List<Object> events, String label) {
        return events.stream().filter(e -> e instanceof String s && s.startsWith(label + " ")).count();
    }

    private static List<String> sorted(List<Object> events) {
        List<String> all = new ArrayList<>();
        for (Object e : events) {
            if (e instanceof String s) {
                all.add(s);
            }
        }
        all.sort(null);
        return all;
    }

    private static List<String> filter(List<String> events, String label) {
        String prefix = label.endsWith(" ") ? label : label + " ";
        return events.stream().filter(e -> e.startsWith(prefix)).toList();
    }
}
