package io.microburst.it.reliability;

import io.microburst.MicroburstCluster;
import io.microburst.it.support.StormHalts;
import org.apache.storm.ILocalCluster;
import org.apache.storm.LocalCluster;

/**
 * The two runtimes a scenario can run on. Tests in this package run on Microburst unless
 * {@code -Dmicroburst.it.reliability.cluster=storm} asks for Apache Storm's LocalCluster, which is how the scenarios
 * themselves are checked against the reference implementation.
 */
enum ClusterKind {
    MICROBURST,
    STORM;

    static final String PROPERTY = "microburst.it.reliability.cluster";

    static ClusterKind underTest() {
        return "storm".equalsIgnoreCase(System.getProperty(PROPERTY, "microburst")) ? STORM : MICROBURST;
    }

    ILocalCluster start() throws Exception {
        if (this == STORM) {
            StormHalts.guard();
            return new LocalCluster();
        }
        return new MicroburstCluster();
    }
}
