package io.microburst.bench.flink;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/** Splits a sentence on spaces with {@code String.split}, as the Storm split bolt does. Stateless. */
public final class SplitSentence implements FlatMapFunction<String, String> {
    private static final long serialVersionUID = 1L;

    @Override
    public void flatMap(String sentence, Collector<String> out) {
        for (String word : sentence.split(" ")) {
            if (!word.isEmpty()) {
                out.collect(word);
            }
        }
    }
}
