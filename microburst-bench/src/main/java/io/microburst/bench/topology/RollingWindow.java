package io.microburst.bench.topology;

import java.util.Arrays;

/** The last {@code capacity} messages, overwritten oldest first, and a sort of them on demand. Confined to one thread. */
public final class RollingWindow {
    private final String[] ring;
    private int next;
    private int size;

    public RollingWindow(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.ring = new String[capacity];
    }

    /** Keeps {@code message}, dropping the oldest when full. */
    public void add(String message) {
        ring[next] = message;
        next = next + 1 == ring.length ? 0 : next + 1;
        if (size < ring.length) {
            size++;
        }
    }

    /** A sorted copy of what the window holds now; the window itself is unchanged. */
    public String[] sorted() {
        String[] copy = new String[size];
        System.arraycopy(ring, 0, copy, 0, size);
        Arrays.sort(copy);
        return copy;
    }

    /** How many messages the window holds. */
    public int size() {
        return size;
    }
}
