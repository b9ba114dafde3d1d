package io.microburst.bench.flink;

import io.microburst.bench.runtime.Deployment;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A job running on Flink's local execution (a MiniCluster in this JVM, started by {@code executeAsync} and shut down when
 * the job ends). Counts, CPU, threads and memory are this JVM's, as for the other in-process runtimes. The run's main
 * thread only.
 */
final class FlinkDeployment implements Deployment {
    private static final long CANCEL_SECONDS = 15;
    private final JobClient job;

    private FlinkDeployment(JobClient job) {
        this.job = job;
    }

    /** Starts {@code env}'s job called {@code name}. */
    static FlinkDeployment start(StreamExecutionEnvironment env, String name) throws Exception {
        return new FlinkDeployment(env.executeAsync(name));
    }

    @Override
    public void close() throws Exception {
        job.cancel().get(CANCEL_SECONDS, TimeUnit.SECONDS);
    }
}
