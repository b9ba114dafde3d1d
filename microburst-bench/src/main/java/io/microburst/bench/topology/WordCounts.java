package io.microburst.bench.topology;

import java.util.HashMap;
import java.util.Map;

/** Running count per word. Confined to one thread (one CountBolt task, or a ceiling's consumer thread). */
public final class WordCounts {
    private final Map<String, long[]> counts = new HashMap<>();

    /** Adds one occurrence of {@code word}; returns its new count. */
    public long add(String word) {
        long[] cell = counts.computeIfAbsent(word, w -> new long[1]);
        return ++cell[0];
    }

    /** Current count of {@code word}, 0 if never seen. */
    public long get(String word) {
        long[] cell = counts.get(word);
        return cell == null ? 0 : cell[0];
    }

    /** Distinct words seen. */
    public int distinct() {
        return counts.size();
    }
}
