/**
 * The server soak ({@link io.microburst.it.soak.ServerSoakTest}, behind {@code -Dmicroburst.long=true}): one
 * {@code microburst server} process with twenty topologies, a real Kafka broker, operators and scrapers, and
 * {@code kill -9}s of the server; see docs/RELIABILITY.md for the command, what it checks and its results.
 */
package io.microburst.it.soak;
