/**
 * Numbers the command line shows: per-component counters read from Storm's executor stats, rates between samples,
 * and what the process costs (CPU, threads, memory). Data only; no printing.
 */
package io.microburst.cli.stats;
