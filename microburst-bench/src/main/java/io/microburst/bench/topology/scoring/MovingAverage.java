package io.microburst.bench.topology.scoring;

/**
 * The average of one sensor's last {@value #WINDOW} readings (fewer at first), kept as a ring and a running sum. Confined
 * to the thread that owns the sensor's key (a Storm task, a Flink keyed operator).
 */
public final class MovingAverage {
    /** Readings averaged over. */
    public static final int WINDOW = 64;
    private final double[] ring = new double[WINDOW];
    private int size;
    private int next;
    private double sum;

    /** Adds {@code value} to the window and returns the window's average with it. */
    public double add(double value) {
        if (size == WINDOW) {
            sum -= ring[next];
        } else {
            size++;
        }
        ring[next] = value;
        sum += value;
        next = next + 1 == WINDOW ? 0 : next + 1;
        return sum / size;
    }
}
