/**
 * Behaviour tests of the ILocalCluster contract, one class per area (lifecycle, groupings, streams and emit errors, topology context,
 * metrics, hooks, ticks, component configuration, failures, validation, cluster API, thread hygiene).
 *
 * <p>They run on Microburst by default. The same tests run on Apache Storm's LocalCluster with
 * {@code -Dmicroburst.it.runtime=storm}, which is how they were checked against the reference; tests of behaviour Microburst defines
 * beyond Storm's (task restart, failure limits, thread hygiene, some validations) are skipped there, saying why.
 */
package io.microburst.it.core;
