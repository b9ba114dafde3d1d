package io.microburst.bench.topology;

import java.util.SplittableRandom;

/** Makes the RollingSort messages: fixed-length strings of random digits 0 to 8. Confined to the caller's thread. */
public final class RandomDigits {
    /** Length of every message, as in the thesis' RollingSort. */
    public static final int MESSAGE_LENGTH = 100;

    private final SplittableRandom random;
    private final char[] buffer = new char[MESSAGE_LENGTH];

    public RandomDigits(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A new message. */
    public String next() {
        for (int i = 0; i < MESSAGE_LENGTH; i++) {
            buffer[i] = (char) ('0' + random.nextInt(9));
        }
        return new String(buffer);
    }
}
