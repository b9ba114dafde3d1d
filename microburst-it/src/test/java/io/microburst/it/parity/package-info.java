/**
 * Parity tests: the same topology runs on Apache Storm's LocalCluster and on Microburst, and what each run recorded is compared:
 * per-stream multisets of received tuples for finite deterministic spouts, routing rules per grouping, hook callbacks, acks,
 * metrics and tick counts. Task ids are the runtime's to assign, so comparisons never depend on them.
 */
package io.microburst.it.parity;
