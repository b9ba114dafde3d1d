package io.microburst.bench.workload;

import io.microburst.bench.topology.TextCorpus;
import io.microburst.bench.topology.WordCounts;
import io.microburst.bench.topology.WordSplitter;
import java.util.List;

/** Hand-written WordCount: cycle over the text, split each line, count each word. */
final class WordCountCeiling implements CeilingWork {
    private final List<String> sentences = TextCorpus.lines(); // immutable, read by the producer only
    private int next; // producer only
    private final WordCounts counts = new WordCounts(); // consumer only

    @Override
    public Object produce() {
        String sentence = sentences.get(next);
        next = next + 1 == sentences.size() ? 0 : next + 1;
        return sentence;
    }

    @Override
    public int consume(Object item) {
        return WordSplitter.split((String) item, counts::add);
    }
}
