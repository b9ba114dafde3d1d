/**
 * The bench's Flink runtime: the suite's DataStream versions of the ordinary WordCount and of the keyed scoring pipeline,
 * written as Flink users write them (a parallel source function, {@code keyBy}, a rich function keeping
 * {@code ValueState}, Flink's default buffer timeout), run on Flink's local execution in the run's JVM. They read the same
 * input as the Storm spouts (the same corpus, the same seeded readings) and count at the same stage, into the same
 * {@link io.microburst.bench.probe.Probes}.
 */
package io.microburst.bench.flink;
