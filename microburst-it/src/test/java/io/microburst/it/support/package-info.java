/**
 * Helpers shared by the behaviour and parity tests. Topology components are Java-serialized and re-created per task, so they record
 * what they observe into {@link io.microburst.it.support.Recorder}, a static registry partitioned by a per-test scope id, instead of
 * holding references to test objects. Waiting is always bounded polling ({@link io.microburst.it.support.Await}).
 */
package io.microburst.it.support;
