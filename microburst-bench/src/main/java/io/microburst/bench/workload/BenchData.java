package io.microburst.bench.workload;

import io.microburst.bench.topology.email.EmailDataSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/** Where generated data sets live: {@code -Dmicroburst.bench.data=DIR}, else a folder under the temporary directory. */
public final class BenchData {
    /** System property naming the data folder. */
    public static final String PROPERTY = "microburst.bench.data";

    private BenchData() {
    }

    public static Path dir() {
        String configured = System.getProperty(PROPERTY);
        return configured != null ? Path.of(configured) : Path.of(System.getProperty("java.io.tmpdir"), "microburst-bench-data");
    }

    /** The email data set, generated on first use. */
    public static Path emails() {
        try {
            return EmailDataSet.ensure(dir(), EmailDataSet.STANDARD_SIZE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
