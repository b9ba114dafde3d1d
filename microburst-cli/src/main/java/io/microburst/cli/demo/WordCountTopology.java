package io.microburst.cli.demo;

import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/** The demo topology: sentences (spout) -> split (shuffle) -> count (fields grouping on word). Storm API only. */
public final class WordCountTopology {
    public static final String NAME = "wordcount";
    public static final String SPOUT = "sentences";
    public static final String SPLIT = "split";
    public static final String COUNT = "count";
    /** Component ids in flow order. */
    public static final List<String> COMPONENTS = List.of(SPOUT, SPLIT, COUNT);
    static final String TEXT_RESOURCE = "/io/microburst/cli/demo/wordcount-text.txt";

    private WordCountTopology() {
    }

    /** @param parallelism executors of each bolt; the spout has one */
    public static StormTopology build(int parallelism) {
        TopologyBuilder builder = new TopologyBuilder();
        builder.setSpout(SPOUT, new CyclingTextSpout(TEXT_RESOURCE), 1);
        builder.setBolt(SPLIT, new SplitSentenceBolt(), parallelism).shuffleGrouping(SPOUT);
        builder.setBolt(COUNT, new WordCountBolt(), parallelism).fieldsGrouping(SPLIT, new Fields("word"));
        return builder.createTopology();
    }

    /** The demo's configuration: no message ids are used, so no ackers are needed. */
    public static Config config() {
        Config conf = new Config();
        conf.setNumAckers(0);
        return conf;
    }
}
