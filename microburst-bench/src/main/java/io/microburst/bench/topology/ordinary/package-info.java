/**
 * Workloads written as most Storm users write them, rather than tuned for any runtime: {@code BaseBasicBolt}s, a fresh
 * {@code new Values(...)} per emit, a count bolt that emits {@code (word, count)} on a stream nobody subscribes to, a
 * {@code HashMap<String, Integer>} updated with {@code merge}, and spouts that build each message with
 * {@link java.util.Random}. The last component of each counts what it receives in a
 * {@link io.microburst.bench.probe.TaskCounter}, as in the tuned workloads.
 */
package io.microburst.bench.topology.ordinary;
