/**
 * Guaranteed-processing tests: acking trees, timeouts, at-least-once under faults, max spout pending, bounded
 * memory under backpressure, cycles, task failure and shutdown, and parity of Storm's acking scenarios.
 *
 * <p>How the tests observe a topology: components are serialized into it, so they report to a static
 * {@link io.microburst.it.reliability.Runs registry} keyed by a per-test run id. Spouts keep the spout-side ledger
 * ({@link io.microburst.it.reliability.SpoutBookkeeping}): every id emitted, acked and failed, in-flight per task,
 * and any ack or fail that arrives off the spout's thread or concurrently with nextTuple. Each test prints its
 * figures on a line starting with {@code FIGURE}.
 *
 * <p>Switches (system properties):
 * <ul>
 *   <li>{@code microburst.it.reliability.cluster=storm} runs the single-runtime tests on Apache Storm's
 *       LocalCluster, to check a scenario against the reference; use small counts with it, e.g.
 *       {@code microburst.it.reliability.roots=2000}, {@code microburst.it.reliability.faults.tuples=20000}.
 *       {@link io.microburst.it.reliability.AckingParityTest} always runs on both.</li>
 *   <li>{@code microburst.long=true} adds the long variants (minutes).</li>
 * </ul>
 */
package io.microburst.it.reliability;
