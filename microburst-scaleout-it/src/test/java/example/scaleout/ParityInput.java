package example.scaleout;

import java.util.ArrayList;
import java.util.List;

/** The finite, fixed input of every part of {@link ParityTopology}; the same on every run. */
public final class ParityInput {
    /** Sentences the word-count spout emits. */
    public static final int SENTENCES = 1_000;
    /** Ids the acked spout emits (each must be acked once). */
    public static final int IDS = 500;
    /** Numbers the sequence spout emits to the windowed and the tick bolts. */
    public static final int NUMBERS = 200;
    /** Tuples in each tumbling count window. */
    public static final int WINDOW = 10;

    private static final String[] WORDS = {
        "storm", "spout", "bolt", "tuple", "stream", "acker", "worker", "nimbus", "window", "tick", "field", "shuffle",
        "grouping", "anchor", "ack", "fail", "kryo", "thrift", "netty", "zookeeper"};

    private ParityInput() {
    }

    /** Sentence {@code i}: three to eight words picked by a fixed formula. */
    public static String sentence(int i) {
        int words = 3 + i % 6;
        StringBuilder s = new StringBuilder();
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                s.append(' ');
            }
            s.append(WORDS[(i * 7 + w * 13 + i / 3) % WORDS.length]);
        }
        return s.toString();
    }

    /** Every sentence, in order. */
    public static List<String> sentences() {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < SENTENCES; i++) {
            all.add(sentence(i));
        }
        return all;
    }
}
