package io.microburst.it.support;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.ILocalCluster;
import org.apache.storm.generated.StormTopology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;

/**
 * One cluster of the selected runtime per test class (Storm's takes seconds to start), a fresh recording scope per test, and every
 * topology a test submitted through {@link #submit} killed after the test whatever its outcome.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ClusterTestSupport {
    protected String runtime;
    protected ILocalCluster cluster;
    protected String scope;
    private final List<String> submitted = new ArrayList<>();

    @BeforeAll
    void startCluster() throws Exception {
        runtime = Runtimes.selected();
        cluster = Runtimes.start(runtime);
    }

    @AfterAll
    void closeCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void openScope(TestInfo test) {
        scope = Recorder.openScope(test.getTestMethod().map(Method::getName).orElse("test"));
    }

    @AfterEach
    void killSubmitted() {
        try {
            for (String name : submitted) {
                Topologies.killAndAwaitGone(cluster, name);
            }
        } finally {
            submitted.clear();
            Recorder.closeScope(scope);
        }
    }

    /** Submits under a unique name derived from the prefix; the topology is killed after the test. */
    protected String submit(String prefix, Map<String, Object> conf, StormTopology topology) throws Exception {
        String name = Topologies.uniqueName(prefix);
        submitted.add(name);
        cluster.submitTopology(name, conf, topology);
        return name;
    }

    /** Registers a topology submitted some other way (with options, for instance) for the after-test kill. */
    protected void killAfterTest(String name) {
        submitted.add(name);
    }

    /** For behaviour Microburst defines beyond Storm's (Storm's LocalCluster does otherwise, or would end the JVM). */
    protected void assumeMicroburst(String why) {
        Assumptions.assumeTrue(Runtimes.isMicroburst(runtime), "Microburst-specific: " + why);
    }

    /** A recorded-event view filtered to one type, for brevity in tests. */
    protected <T> List<T> recorded(Class<T> type) {
        return Recorder.all(scope, type);
    }
}
