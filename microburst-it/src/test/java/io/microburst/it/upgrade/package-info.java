/**
 * The upgrade measurement on the server's own path: a KafkaSpout and RocksDB counting topology, built from source into
 * one jar per version, upgraded through the web port under a steady producer ({@link
 * io.microburst.it.upgrade.KafkaUpgradeMeasurement}, behind {@code -Dmicroburst.long=true}).
 */
package io.microburst.it.upgrade;
