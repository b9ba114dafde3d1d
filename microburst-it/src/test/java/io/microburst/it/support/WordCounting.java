package io.microburst.it.support;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.topology.BasicOutputCollector;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseBasicBolt;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Tuple;
import org.apache.storm.tuple.Values;

/**
 * A word count's parts, as the compatibility tests build it on both runtimes: a bolt that splits sentences, a bolt that
 * counts words, and the "word=count" lines a sink should receive, sorted.
 */
public final class WordCounting {
    private WordCounting() {
    }

    /** Splits a sentence into words. */
    public static class Split extends BaseBasicBolt {
        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            for (String word : tuple.getString(0).split(" ")) {
                collector.emit(new Values(word));
            }
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word"));
        }
    }

    /** Emits (word, count so far) for each word. */
    public static class Count extends BaseBasicBolt {
        private final Map<String, Integer> counts = new HashMap<>();

        @Override
        public void execute(Tuple tuple, BasicOutputCollector collector) {
            String word = tuple.getString(0);
            collector.emit(new Values(word, counts.merge(word, 1, Integer::sum)));
        }

        @Override
        public void declareOutputFields(OutputFieldsDeclarer declarer) {
            declarer.declare(new Fields("word", "count"));
        }
    }

    /** "word=count" for every word of {@code sentences} in turn, sorted: what the counting bolt emits. */
    public static List<String> expected(List<String> sentences) {
        Map<String, Integer> counts = new HashMap<>();
        List<String> result = new ArrayList<>();
        for (String sentence : sentences) {
            for (String word : sentence.split(" ")) {
                result.add(word + "=" + counts.merge(word, 1, Integer::sum));
            }
        }
        result.sort(null);
        return result;
    }

    /** "word=count" for every (word, count) tuple received in {@code scope}, sorted. */
    public static List<String> received(String scope) {
        List<String> words = new ArrayList<>();
        for (Object event : Recorder.all(scope)) {
            if (event instanceof Received r) {
                words.add(r.values().get(0) + "=" + r.values().get(1));
            }
        }
        words.sort(null);
        return words;
    }
}
