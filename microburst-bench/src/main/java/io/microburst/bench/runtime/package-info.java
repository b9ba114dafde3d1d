/**
 * The runtimes a workload runs on: Microburst and Apache Storm's LocalCluster (both through {@code ILocalCluster}, fed the
 * same topology), and the two hand-written ceilings. Each starts a {@link io.microburst.bench.runtime.Deployment} in the
 * current (child) JVM.
 */
package io.microburst.bench.runtime;
