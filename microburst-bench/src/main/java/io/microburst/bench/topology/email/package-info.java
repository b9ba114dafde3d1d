/**
 * The I/O-bound workload shaped like the Enron topology of the Storm-MC thesis: a compressed file of serialized email
 * records, read by a spout, then deserialized, filtered, modified and measured, with a global aggregate every 4 seconds.
 * The data set is generated here (deterministic, email-like), never downloaded.
 */
package io.microburst.bench.topology.email;
