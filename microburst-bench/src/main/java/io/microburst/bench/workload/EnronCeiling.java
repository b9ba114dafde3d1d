package io.microburst.bench.workload;

import io.microburst.bench.topology.email.Email;
import io.microburst.bench.topology.email.EmailCodec;
import io.microburst.bench.topology.email.EmailFileReader;
import io.microburst.bench.topology.email.EmailMetrics;
import io.microburst.bench.topology.email.EmailRules;
import io.microburst.bench.topology.email.MetricsBolt;
import java.nio.file.Path;

/** Hand-written Enron pipeline: read, deserialize, filter, modify, measure, and report the rate every 4 s. */
final class EnronCeiling implements CeilingWork {
    private static final long REPORT_NANOS = MetricsBolt.REPORT_SECS * 1_000_000_000L;
    private final EmailFileReader reader; // producer only
    private final EmailMetrics metrics = new EmailMetrics(System.nanoTime()); // consumer only
    private long nextReportNanos = System.nanoTime() + REPORT_NANOS; // consumer only
    private double globalRate; // consumer only

    EnronCeiling(Path dataSet) {
        this.reader = new EmailFileReader(dataSet);
    }

    @Override
    public Object produce() {
        return reader.next();
    }

    @Override
    public int consume(Object item) {
        Email email = EmailCodec.decode((byte[]) item);
        int delivered = 0;
        if (EmailRules.keep(email)) {
            metrics.add(EmailRules.modify(email));
            delivered = 1;
        }
        long now = System.nanoTime();
        if (now - nextReportNanos >= 0) {
            globalRate = metrics.takeRate(now);
            nextReportNanos = now + REPORT_NANOS;
        }
        return delivered;
    }

    double globalRate() {
        return globalRate;
    }
}
