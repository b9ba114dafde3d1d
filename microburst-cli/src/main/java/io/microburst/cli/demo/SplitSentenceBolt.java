package io.microburst.cli.demo;

import java.util.Map;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/** Splits each {@code sentence} into lower-case {@code word}s: runs of letters, digits and apostrophes. */
public final class SplitSentenceBolt extends BaseRichBolt {
    private static final long serialVersionUID = 1L;

    private transient OutputCollector collector;

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        this.collector = collector;
    }

    @Override
    public void execute(Tuple input) {
        String sentence = input.getString(0);
        int start = -1;
        for (int i = 0; i <= sentence.length(); i++) {
            boolean wordChar = i < sentence.length() && isWordChar(sentence.charAt(i));
            if (wordChar && start < 0) {
                start = i;
            } else if (!wordChar && start >= 0) {
                collector.emit(input, new Values(sentence.substring(start, i).toLowerCase()));
                start = -1;
            }
        }
        collector.ack(input);
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '\'';
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("word"));
    }
}
