package io.microburst.bench.workload;

import io.microburst.bench.probe.Probes;
import io.microburst.bench.topology.Pacer;
import org.HdrHistogram.SingleWriterRecorder;

/** Hand-written latency pipeline: paced stamps, and the consumer records now minus stamp. */
final class LatencyCeiling implements CeilingWork {
    private final Pacer pacer; // producer only
    private int pendingInBurst; // producer only
    private final SingleWriterRecorder latency = Probes.newLatencyRecorder(); // written by the consumer only

    LatencyCeiling(int tuplesPerMs) {
        this.pacer = new Pacer(tuplesPerMs);
    }

    @Override
    public Object produce() {
        if (pendingInBurst == 0) {
            pendingInBurst = pacer.due(System.nanoTime());
            if (pendingInBurst == 0) {
                return null;
            }
        }
        pendingInBurst--;
        return System.nanoTime();
    }

    @Override
    public int consume(Object item) {
        Probes.record(latency, System.nanoTime() - (Long) item);
        return 1;
    }
}
