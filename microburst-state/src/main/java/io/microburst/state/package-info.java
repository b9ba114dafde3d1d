/**
 * Durable state for Storm's stateful bolts: {@link io.microburst.state.RocksDbKeyValueStateProvider}, selected by a
 * topology with {@code topology.state.provider}, keeps each task's {@code KeyValueState} in an embedded RocksDB store
 * so that after a crash every stateful bolt resumes from its last committed checkpoint.
 */
package io.microburst.state;
