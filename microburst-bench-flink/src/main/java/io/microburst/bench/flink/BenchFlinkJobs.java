package io.microburst.bench.flink;

import io.microburst.bench.runtime.FlinkJobs;
import io.microburst.bench.runtime.Runtimes;
import io.microburst.bench.workload.OrdinaryWorkloads;
import io.microburst.bench.workload.ScoringWorkloads;
import io.microburst.bench.workload.Workload;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The suite's Flink jobs by name, found by the bench through {@link java.util.ServiceLoader}. Stateless; any thread. */
public final class BenchFlinkJobs implements FlinkJobs {
    @Override
    public Runtimes.Launch prepare(Workload workload) {
        String job = workload.flinkJob();
        StreamExecutionEnvironment env = FlinkPipelines.localEnvironment(workload.parallelism());
        if (OrdinaryWorkloads.WORDCOUNT_FLINK_JOB.equals(job)) {
            FlinkPipelines.wordCount(env, new SentenceSource());
        } else if (ScoringWorkloads.FLINK_JOB.equals(job)) {
            FlinkPipelines.scoring(env, new ReadingSource(0));
        } else {
            throw new IllegalArgumentException("workload " + workload.name() + " names Flink job " + job
                + ", which the Flink runtime does not have; known: " + OrdinaryWorkloads.WORDCOUNT_FLINK_JOB + ", "
                + ScoringWorkloads.FLINK_JOB);
        }
        return () -> FlinkDeployment.start(env, workload.name());
    }
}
