/**
 * Results: what one run measured ({@link io.microburst.bench.result.RunResult}), how a child JVM reports it to the parent
 * ({@link io.microburst.bench.result.ResultLine}), and what the parent makes of many runs: medians, ratio tables, JSON, CSV
 * and the HTML report.
 */
package io.microburst.bench.result;
