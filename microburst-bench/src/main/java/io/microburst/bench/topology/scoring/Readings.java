package io.microburst.bench.topology.scoring;

import java.util.Random;

/**
 * A deterministic stream of sensor readings: {@value #SENSORS} sensors, each around a level of its own with Gaussian noise,
 * and about one reading in {@value #SPIKE_ONE_IN} a spike of half its level again. The same seed gives the same readings,
 * so a Storm spout task and a Flink source subtask with the same index emit the same stream. One thread at a time.
 */
public final class Readings {
    /** Distinct sensors (keys). */
    public static final int SENSORS = 1_000;
    /** About one reading in this many is a spike. */
    public static final int SPIKE_ONE_IN = 1_000;
    private static final String[] NAMES = new String[SENSORS];

    static {
        for (int i = 0; i < SENSORS; i++) {
            NAMES[i] = "sensor-" + i;
        }
    }

    private final Random random;
    private String sensor;
    private double value;

    public Readings(long seed) {
        this.random = new Random(seed);
    }

    /** Moves to the next reading; read it with {@link #sensor()} and {@link #value()}. */
    public void next() {
        int index = random.nextInt(SENSORS);
        double level = 20 + index % 10;
        double reading = level + random.nextGaussian() * 0.5;
        if (random.nextInt(SPIKE_ONE_IN) == 0) {
            reading *= 1.5;
        }
        sensor = NAMES[index];
        value = reading;
    }

    /** The current reading's sensor. */
    public String sensor() {
        return sensor;
    }

    /** The current reading's value. */
    public double value() {
        return value;
    }
}
