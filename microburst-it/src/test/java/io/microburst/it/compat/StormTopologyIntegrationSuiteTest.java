package io.microburst.it.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.microburst.it.support.StormHalts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * storm-core's own {@code TopologyIntegrationTest} from Storm 2.8.3's source release ({@code storm-core/test/jvm}),
 * compiled from the release with the helpers it imports (its package's bolts and feeder, storm-server's
 * {@code AssertLoop}, storm-client's {@code IntegrationTest} and {@code PredicateMatcher}; Hamcrest and Awaitility at
 * Storm's versions, which the build copies to {@code target/storm-core-test-libs}) and run case by case.
 *
 * <p>On Microburst the only change is {@code LocalCluster} renamed {@code MicroburstCluster}: its import, the line that
 * makes each case's cluster and the type of the one helper that takes the cluster. Every build runs the cases that
 * used to fail on Microburst and pass on Storm ({@link #EVERY_BUILD}); {@code -Dmicroburst.long=true} runs all of them,
 * and the unchanged class on Storm's LocalCluster too (minutes there: on a loaded machine each of its worker slots
 * can take a minute to stop), expecting the same verdicts.
 */
class StormTopologyIntegrationSuiteTest {
    private static final String SUITE = "org.apache.storm.integration.TopologyIntegrationTest";
    private static final String INTEGRATION = "storm-core/test/jvm/org/apache/storm/integration";
    /** The cases of issue 39: a {@code __system} subscription, acker emits seen by hooks, component Kryo decorators. */
    static final List<String> EVERY_BUILD = List.of("testHooks", "testKryoDecoratorsConfig", "testSystemStream");
    /**
     * Fails on Storm's LocalCluster as well: the test expects {@code Long} values and a {@code HashMap} of
     * registrations, where Storm's tasks get {@code Integer}s and a {@code JSONObject}.
     */
    static final Set<String> FAILS_ON_STORM = Set.of("testComponentSpecificConfig");

    @Test
    void topologyIntegrationTestRunsOnMicroburst() throws Exception {
        Path release = StormSourceRelease.find(INTEGRATION);
        assumeTrue(release != null, StormTestSuitesParityTest.SOURCE_RELEASE_HOW_TO);
        Path classes = compile(release, "microburst", true);
        Predicate<String> selected = StormSourceRelease.LONG_RUN ? name -> true : EVERY_BUILD::contains;
        Map<String, String> verdicts = SuiteCases.run(classes, libraries(), SUITE, selected);
        assertTrue(verdicts.keySet().containsAll(EVERY_BUILD), "the cases ran: " + verdicts);
        if (StormSourceRelease.LONG_RUN) {
            assertEquals(15, verdicts.size(), "all of the suite's cases ran (testBasicTopology twice): " + verdicts);
        }
        assertEquals(List.of(), unexpected(verdicts), "TopologyIntegrationTest on Microburst: " + verdicts);
    }

    /** The reference: the same class, unchanged, on Storm's LocalCluster. Long runs only. */
    @Test
    void topologyIntegrationTestRunsOnStorm() throws Exception {
        assumeTrue(StormSourceRelease.LONG_RUN, "runs with -Dmicroburst.long=true (minutes on Storm's LocalCluster)");
        Path release = StormSourceRelease.find(INTEGRATION);
        assumeTrue(release != null, StormTestSuitesParityTest.SOURCE_RELEASE_HOW_TO);
        StormHalts.guard();
        Path classes = compile(release, "storm", false);
        Map<String, String> verdicts = SuiteCases.run(classes, libraries(), SUITE, name -> true);
        assertEquals(15, verdicts.size(), "all of the suite's cases ran: " + verdicts);
        assertEquals(List.of(), unexpected(verdicts), "TopologyIntegrationTest on Storm: " + verdicts);
    }

    /** Cases whose verdict is not the expected one: passed, except those that fail on Storm too. */
    private static List<String> unexpected(Map<String, String> verdicts) {
        List<String> wrong = new ArrayList<>();
        verdicts.forEach((name, verdict) -> {
            boolean passed = SuiteCases.PASSED.equals(verdict);
            if (passed == FAILS_ON_STORM.contains(name)) {
                wrong.add(name + ": " + verdict);
            }
        });
        return wrong;
    }

    /** Compiles the suite and what it imports into {@code target/storm-suites/topology-integration/NAME}. */
    private static Path compile(Path release, String name, boolean onMicroburst) throws Exception {
        Path work = Path.of("target", "storm-suites", "topology-integration", name).toAbsolutePath();
        Path sources = work.resolve("src");
        Map<Path, Path> files = new LinkedHashMap<>();
        for (String helper : List.of("AckEveryOtherBolt", "AckTrackingFeeder", "AggBolt", "IdentityBolt")) {
            files.put(release.resolve(INTEGRATION).resolve(helper + ".java"),
                sources.resolve("org/apache/storm/integration").resolve(helper + ".java"));
        }
        files.put(release.resolve("storm-server/src/test/java/org/apache/storm/AssertLoop.java"),
            sources.resolve("org/apache/storm/AssertLoop.java"));
        for (String helper : List.of("testing/IntegrationTest", "utils/PredicateMatcher")) {
            files.put(release.resolve("storm-client/test/jvm/org/apache/storm").resolve(helper + ".java"),
                sources.resolve("org/apache/storm").resolve(helper + ".java"));
        }
        for (Map.Entry<Path, Path> file : files.entrySet()) {
            Files.createDirectories(file.getValue().getParent());
            Files.copy(file.getKey(), file.getValue(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String suite = Files.readString(release.resolve(INTEGRATION).resolve("TopologyIntegrationTest.java"));
        if (onMicroburst) {
            String stormImport = "import org.apache.storm.LocalCluster;";
            assertTrue(suite.contains(stormImport), "the suite makes its clusters with Storm's LocalCluster");
            suite = suite.replace(stormImport, "import io.microburst.MicroburstCluster;")
                .replaceAll("\\bLocalCluster\\b", "MicroburstCluster");
        }
        Path target = sources.resolve("org/apache/storm/integration/TopologyIntegrationTest.java");
        Files.writeString(target, suite);
        Map<String, String> notBuilt = new LinkedHashMap<>();
        Path classes = StormExamplesParityTest.compile(sources, work.resolve("classes"), libraries(), notBuilt);
        assertEquals(Map.of(), notBuilt, "Storm's TopologyIntegrationTest compiles (" + name + ")");
        return classes;
    }

    /** Hamcrest and Awaitility, as the build copies them. */
    private static List<Path> libraries() throws Exception {
        Path dir = Path.of("target", "storm-core-test-libs").toAbsolutePath();
        assumeTrue(Files.isDirectory(dir), "the build copies Hamcrest and Awaitility to " + dir + " (mvn verify)");
        try (Stream<Path> jars = Files.list(dir)) {
            return jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }
}
