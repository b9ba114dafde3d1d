package io.microburst.bench.result;

/** How a run ended. */
public enum RunStatus {
    /** Measured. */
    OK,
    /** Started but produced no measurement (crash, timeout, no tuple reached the last component). */
    FAILED,
    /** Not run: the runtime has no implementation of the workload (a ceiling that does not exist for it). */
    SKIPPED
}
