/**
 * Spouts and bolts of the benchmark workloads, written once against the Storm API and run unchanged on every runtime.
 *
 * <p>The component at the end of each workload counts what it receives in a {@link io.microburst.bench.probe.TaskCounter};
 * components that measure latency record into their own {@link org.HdrHistogram.SingleWriterRecorder}. The work itself
 * (splitting, sorting, decoding emails) lives in plain classes that the hand-written ceilings call too, so every runtime does
 * the same work.
 */
package io.microburst.bench.topology;
