/**
 * Scale-out checks: {@link io.microburst.serialization.SerializationCheck} passes every emitted tuple through Storm's own
 * Kryo setup, as a worker of an Apache Storm cluster would, so that values a cluster cannot ship between processes are
 * found while the topology still runs in one.
 */
package io.microburst.serialization;
