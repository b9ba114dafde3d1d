package io.microburst.bench.topology;

import java.util.function.Consumer;

/** Splits a sentence into words on spaces without a regular expression. Stateless. */
public final class WordSplitter {
    private WordSplitter() {
    }

    /** Passes each non-empty space-separated word of {@code sentence} to {@code sink}; returns how many. */
    public static int split(String sentence, Consumer<String> sink) {
        int words = 0;
        int start = -1;
        for (int i = 0; i <= sentence.length(); i++) {
            boolean boundary = i == sentence.length() || sentence.charAt(i) == ' ';
            if (boundary) {
                if (start >= 0) {
                    sink.accept(sentence.substring(start, i));
                    words++;
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
        }
        return words;
    }
}
