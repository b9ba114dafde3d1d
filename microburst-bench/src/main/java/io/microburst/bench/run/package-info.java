/**
 * Running the bench: the plan of (workload, runtime, round) runs, the measurement a child JVM makes, the launcher that
 * starts each child and reads its result, and the progress display.
 */
package io.microburst.bench.run;
