package io.microburst.bench.workload;

import io.microburst.bench.topology.scoring.MovingAverageBolt;
import io.microburst.bench.topology.scoring.ReadingSpout;
import io.microburst.bench.topology.scoring.SpikeFilterBolt;
import io.microburst.bench.topology.scoring.SpikeSinkBolt;
import java.util.List;
import org.apache.storm.Config;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;

/**
 * The keyed two-stage scoring pipeline (the shape of a spike-detection application) as ordinary Storm code, with a Flink
 * DataStream version of the same shape ({@value #FLINK_JOB}). Stateless; any thread.
 */
public final class ScoringWorkloads {
    /** The Flink job of these workloads. */
    public static final String FLINK_JOB = "scoring";
    /** Parallelisms in the suite. */
    static final List<Integer> PARALLELISMS = List.of(1, 2);

    private ScoringWorkloads() {
    }

    static Workload scoring(int parallelism) {
        return Workload.named("scoring-p" + parallelism)
            .family("scoring", parallelism)
            .description("Keyed scoring as ordinary user code: sensor readings (1000 sensors) -> moving average of the last "
                + "64 per sensor (fields on the sensor, HashMap) -> threshold on the distance from the average (shuffle) "
                + "-> sink of the spikes; parallelism " + parallelism + " for every component, acking off, "
                + "microburst.placement=auto; counted at the threshold")
            .unit("readings/s")
            .config(Config.TOPOLOGY_ACKER_EXECUTORS, 0)
            .config(WorkloadCatalog.PLACEMENT, "auto")
            .topology(() -> topology(parallelism, 0))
            .flinkJob(FLINK_JOB)
            .build();
    }

    /** The pipeline at {@code parallelism}, its spouts stopping after {@code limit} readings each (0: never). */
    public static StormTopology topology(int parallelism, long limit) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("readings", new ReadingSpout(limit), parallelism);
        b.setBolt("average", new MovingAverageBolt(), parallelism).fieldsGrouping("readings", new Fields("sensor"));
        b.setBolt("threshold", new SpikeFilterBolt(), parallelism).shuffleGrouping("average");
        b.setBolt("sink", new SpikeSinkBolt(), parallelism).shuffleGrouping("threshold");
        return b.createTopology();
    }
}
