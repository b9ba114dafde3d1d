package io.microburst.localcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The classes this artifact provides in storm-server's place have storm-server 2.8.3's public signatures: loaded from
 * storm-server's own jar (copied by the build, on no class path) in a class loader of its own, each class is compared
 * by reflection with ours: modifiers, superclass, interfaces, public constructors, methods (generic
 * types, checked exceptions, {@code @Deprecated}), fields and nested classes. A difference fails the test, named;
 * the only ones allowed are {@link #KNOWN_GAPS}, the members that name storm-server's daemons (docs/COMPATIBILITY.md), and none of ours is protected (none of
 * storm-server's is),
 * and one of those that goes away fails it too, so that the list and the documentation stay true. The build runs it
 * a second time with storm-server 2.8.4's jar as the reference (and storm-client 2.8.4 on the class path).
 */
class SignatureParityTest {
    /** What users compile against in storm-server: its local-mode and testing API, and the types it names. */
    static final List<String> PROVIDED = List.of(
        "org.apache.storm.LocalCluster", "org.apache.storm.LocalCluster$Builder",
        "org.apache.storm.LocalCluster$LocalTopology", "org.apache.storm.ILocalClusterTrackedTopologyAware",
        "org.apache.storm.LocalDRPC", "org.apache.storm.Testing", "org.apache.storm.Testing$CapturedTopology",
        "org.apache.storm.Testing$Condition", "org.apache.storm.testing.CompleteTopologyParam",
        "org.apache.storm.testing.InProcessZookeeper", "org.apache.storm.testing.TestJob",
        "org.apache.storm.testing.TrackedTopology", "org.apache.storm.metric.StormMetricsRegistry");

    /** storm-server's members that name its daemons (Nimbus, Supervisor, INimbus, TopoCache): absent or changed here. */
    static final Set<String> KNOWN_GAPS = Set.of(
        "storm-server only: org.apache.storm.LocalCluster: public org.apache.storm.daemon.supervisor.Supervisor"
            + " getSupervisor(java.lang.String)",
        "storm-server only: org.apache.storm.LocalCluster: public org.apache.storm.daemon.supervisor.Supervisor"
            + " addSupervisor() throws java.lang.Exception",
        "storm-server only: org.apache.storm.LocalCluster: public org.apache.storm.daemon.supervisor.Supervisor"
            + " addSupervisor(java.lang.Number) throws java.lang.Exception",
        "storm-server only: org.apache.storm.LocalCluster: public org.apache.storm.daemon.supervisor.Supervisor"
            + " addSupervisor(java.lang.Number,java.lang.String) throws java.lang.Exception",
        "storm-server only: org.apache.storm.LocalCluster: public org.apache.storm.daemon.supervisor.Supervisor"
            + " addSupervisor(java.lang.Number,java.util.Map<java.lang.String, java.lang.Object>,java.lang.String)"
            + " throws java.lang.Exception",
        "storm-server only: org.apache.storm.LocalCluster$Builder: public org.apache.storm.LocalCluster$Builder"
            + " withINimbus(org.apache.storm.scheduler.INimbus)",
        "storm-server only: org.apache.storm.LocalCluster$Builder: public org.apache.storm.LocalCluster$Builder"
            + " withNimbusWrapper(java.util.function.UnaryOperator<org.apache.storm.daemon.nimbus.Nimbus>)",
        "storm-server only: org.apache.storm.LocalCluster$Builder: public org.apache.storm.LocalCluster$Builder"
            + " withTopoCache(org.apache.storm.daemon.nimbus.TopoCache)");

    private static ChildFirstJarLoader stormServer;

    @BeforeAll
    static void openStormServer() throws IOException {
        Path jar = Path.of(System.getProperty("microburst.test.storm.server.jar", "target/storm-server/missing.jar"));
        assertTrue(Files.isRegularFile(jar), "storm-server's jar, which the build copies: " + jar);
        stormServer = new ChildFirstJarLoader(jar.toUri().toURL(), SignatureParityTest.class.getClassLoader());
    }

    @AfterAll
    static void closeStormServer() throws IOException {
        stormServer.close();
    }

    @Test
    void everyProvidedClassHasStormServersSignatures() throws Exception {
        Set<String> differences = new TreeSet<>();
        for (String name : PROVIDED) {
            Class<?> storm = Class.forName(name, false, stormServer);
            Class<?> ours = Class.forName(name, false, SignatureParityTest.class.getClassLoader());
            assertTrue(storm.getClassLoader() == stormServer && ours.getClassLoader() != stormServer,
                "each side loads its own " + name);
            if (Signatures.declaresProtected(ours)) {
                differences.add("here only: " + name + ": protected members (storm-server's class has none)");
            }
            Set<String> stormApi = Signatures.of(storm);
            Set<String> ourApi = Signatures.of(ours);
            for (String member : stormApi) {
                if (!ourApi.contains(member)) {
                    differences.add("storm-server only: " + name + ": " + member);
                }
            }
            for (String member : ourApi) {
                if (!stormApi.contains(member)) {
                    differences.add("here only: " + name + ": " + member);
                }
            }
        }
        Set<String> unexpected = new TreeSet<>(differences);
        unexpected.removeAll(KNOWN_GAPS);
        Set<String> gone = new TreeSet<>(KNOWN_GAPS);
        gone.removeAll(differences);
        assertEquals("", String.join("\n", unexpected), "signatures that differ from those of "
            + System.getProperty("microburst.test.storm.server.jar"));
        assertEquals("", String.join("\n", gone), "known gaps that are gone: take them out of KNOWN_GAPS and the docs");
    }

    /** Every class of storm-server's org.apache.storm.testing package is provided (storm-client has the others). */
    @Test
    void everyStormServerTestingClassIsProvided() throws IOException {
        Path jar = Path.of(System.getProperty("microburst.test.storm.server.jar"));
        List<String> testing = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            file.stream().map(e -> e.getName())
                .filter(n -> n.startsWith("org/apache/storm/testing/") && n.endsWith(".class"))
                .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
                .forEach(testing::add);
        }
        assertTrue(testing.size() >= 4, "storm-server's testing classes: " + testing);
        List<String> missing = testing.stream().filter(n -> !PROVIDED.contains(n)).collect(Collectors.toList());
        assertEquals(List.of(), missing);
    }

    /** None of our classes shadows one of storm-client's (or anything else on the class path): one copy of each. */
    @Test
    void noProvidedClassExistsTwiceOnTheClassPath() throws IOException {
        for (String name : PROVIDED) {
            String resource = name.replace('.', '/') + ".class";
            List<URL> copies = Collections.list(SignatureParityTest.class.getClassLoader().getResources(resource));
            assertEquals(1, copies.size(), name + ": " + copies);
            assertTrue(!copies.get(0).toString().contains("storm-client"), name + " in " + copies.get(0));
        }
    }
}
