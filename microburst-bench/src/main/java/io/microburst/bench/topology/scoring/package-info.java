/**
 * A keyed two-stage scoring pipeline written as ordinary Storm user code, the shape of a spike-detection application:
 * sensor readings, a moving average per sensor (fields grouping on the sensor), a threshold on the reading's distance from
 * its average, and a sink of the spikes. The plain work classes ({@link io.microburst.bench.topology.scoring.Readings},
 * {@link io.microburst.bench.topology.scoring.MovingAverage}, {@link io.microburst.bench.topology.scoring.SpikeRule}) are
 * shared with the suite's Flink version of the same pipeline, so both runtimes see the same input and apply the same rule.
 */
package io.microburst.bench.topology.scoring;
