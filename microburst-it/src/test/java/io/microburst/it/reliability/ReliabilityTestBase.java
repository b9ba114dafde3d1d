package io.microburst.it.reliability;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.ILocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One cluster per test class (Storm's LocalCluster takes seconds to start), of the kind {@link ClusterKind#underTest()}
 * names, always closed after the class.
 */
abstract class ReliabilityTestBase {
    static final boolean LONG_RUN = Boolean.getBoolean("microburst.long");

    static ClusterKind kind;
    static ILocalCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        kind = ClusterKind.underTest();
        cluster = kind.start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        ILocalCluster started = cluster;
        cluster = null;
        if (started != null) {
            started.close();
        }
    }

    /** A topology configuration with an explicit message timeout; everything else at Storm's defaults. */
    static Config conf(int messageTimeoutSecs) {
        Config conf = new Config();
        conf.setMessageTimeoutSecs(messageTimeoutSecs);
        conf.setNumWorkers(1);
        return conf;
    }

    /** Sizes a run by a system property, so a scenario can be checked on Storm with small counts. */
    static int count(String property, int defaultValue) {
        return Integer.getInteger(property, defaultValue);
    }

    /** Prints a test's figures on one line, so the run log shows them. */
    static void figure(String test, Map<String, ?> figures) {
        System.out.println("FIGURE [" + kind + "] " + test + ": " + figures);
    }

    static Map<String, Object> figures(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put(String.valueOf(keysAndValues[i]), keysAndValues[i + 1]);
        }
        return map;
    }
}
