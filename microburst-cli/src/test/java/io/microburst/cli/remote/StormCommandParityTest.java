package io.microburst.cli.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.microburst.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.generated.ExecutorInfo;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.NimbusClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code microburst}'s verbs against storm-core 2.8.3's own command classes ({@code ListTopologies}, {@code Monitor},
 * {@code Rebalance}, {@code KillTopology}), both run in this JVM against one recording Nimbus (storm-client's
 * {@code NimbusClient.LocalOverride}): the same arguments must send the same call with the same options, and print the
 * same text, so that a script written for {@code storm} reads {@code microburst}'s output unchanged.
 */
@Timeout(60)
class StormCommandParityTest {
    private static final String TOPOLOGY = "wordcount";

    /** What the fake Nimbus answers, and the calls it received. */
    private final List<TopologySummary> summaries = new ArrayList<>();
    private final List<Object[]> calls = new ArrayList<>();
    private TopologyInfo info;

    private Nimbus.Iface nimbus() {
        return (Nimbus.Iface) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Nimbus.Iface.class},
            (proxy, method, args) -> {
                String name = method.getName();
                if (method.getDeclaringClass() == Object.class) {
                    return switch (name) {
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "recording Nimbus";
                    };
                }
                synchronized (calls) {
                    List<Object> call = new ArrayList<>();
                    call.add(name);
                    if (args != null) {
                        call.addAll(List.of(args));
                    }
                    calls.add(call.toArray());
                }
                if (args != null && args.length > 0 && "nosuch".equals(args[0])) {
                    throw new NotAliveException("No topology named 'nosuch' is running");
                }
                return switch (name) {
                    case "getTopologySummaries" -> summaries;
                    case "getTopologyInfoByNameWithOpts" -> info;
                    case "close", "rebalance", "killTopologyWithOpts" -> null;
                    default -> throw new UnsupportedOperationException(name);
                };
            });
    }

    record Run(int status, String out, String err) {
    }

    private Run microburst(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        NimbusClient.LocalOverride override = new NimbusClient.LocalOverride(nimbus());
        try {
            status = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            override.close();
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private interface StormMain {
        void run() throws Exception;
    }

    /** Runs a storm-core command's main with System.out captured, as the storm script's JVM would print it. */
    private String storm(StormMain main) throws Exception {
        PrintStream stdout = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (NimbusClient.LocalOverride ignored = new NimbusClient.LocalOverride(nimbus())) {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.run();
        } finally {
            System.setOut(stdout);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static TopologySummary summary(String name, String id, String status, int tasks, int uptime) {
        TopologySummary s = new TopologySummary(id, name, tasks, 1, 1, uptime, status);
        s.set_owner("alice");
        return s;
    }

    @Test
    void listPrintsStormsTable() throws Exception {
        assertEquals(storm(() -> org.apache.storm.command.ListTopologies.main(new String[0])),
            microburst("list").out(), "no topologies");
        summaries.add(summary(TOPOLOGY, "wordcount-1-1764240000", "ACTIVE", 12, 75));
        summaries.add(summary("a-name-longer-than-twenty", "a-name-longer-than-twenty-2-1764240001", "INACTIVE", 3,
            4));
        String storms = storm(() -> org.apache.storm.command.ListTopologies.main(new String[0]));
        assertTrue(storms.startsWith("Topology_name "), storms);
        assertEquals(storms, microburst("list").out());
    }

    @Test
    void rebalanceAndKillSendWhatStormsCommandsSend() throws Exception {
        String[] rebalance = {"-w", "5", "-n", "2", "-e", "split=4", "-e", "count=3", "-r",
            "{\"split\": {\"cpu.pcore.percent\": 50}}", "-t", "{\"topology.debug\": true}", TOPOLOGY};
        storm(() -> org.apache.storm.command.Rebalance.main(rebalance));
        Object[] storms = calls.remove(calls.size() - 1);
        List<String> args = new ArrayList<>(List.of("rebalance"));
        args.addAll(List.of(rebalance));
        Run ours = microburst(args.toArray(String[]::new));
        assertEquals(Main.OK, ours.status(), ours.err());
        assertEquals("Topology " + TOPOLOGY + " is rebalancing\n", ours.out());
        assertTrue(ours.err().startsWith("microburst: rebalance: -n 2 is sent as Storm's num_workers"), ours.err());
        assertEquals(Arrays.asList(storms), Arrays.asList(calls.get(calls.size() - 1)), "the same rebalance call");

        storm(() -> org.apache.storm.command.KillTopology.main(new String[] {"-w", "7", TOPOLOGY}));
        Object[] stormsKill = calls.remove(calls.size() - 1);
        assertEquals("Killed topology: " + TOPOLOGY + "\n", microburst("kill", "-w", "7", TOPOLOGY).out());
        assertEquals(Arrays.asList(stormsKill), Arrays.asList(calls.get(calls.size() - 1)), "the same kill call");
    }

    @Test
    void killTakesSeveralNamesAndIgnoreErrorsAsStormsKill() throws Exception {
        storm(() -> org.apache.storm.command.KillTopology.main(new String[] {"-w", "3", TOPOLOGY, "other"}));
        List<List<Object>> storms = drain();
        Run ours = microburst("kill", "-w", "3", TOPOLOGY, "other");
        assertEquals(Main.OK, ours.status(), ours.err());
        assertEquals("Killed topology: " + TOPOLOGY + "\nKilled topology: other\n", ours.out());
        assertEquals(storms, drain(), "the same kill calls, in order");

        // Without -i the first failure stops the rest; with it the rest are killed and the command fails at the end.
        assertThrows(Exception.class,
            () -> storm(() -> org.apache.storm.command.KillTopology.main(new String[] {TOPOLOGY, "nosuch", "other"})));
        storms = drain();
        ours = microburst("kill", TOPOLOGY, "nosuch", "other");
        assertEquals(Main.FAILED, ours.status());
        assertEquals("microburst: kill: no topology named 'nosuch' is running; 'microburst list' shows the running "
            + "ones\n", ours.err());
        assertEquals(storms, drain(), "stopped at the first failure");

        assertThrows(Exception.class, () -> storm(() -> org.apache.storm.command.KillTopology.main(
            new String[] {"-i", TOPOLOGY, "nosuch", "bad/name", "other"})));
        storms = drain();
        ours = microburst("kill", "-i", TOPOLOGY, "nosuch", "bad/name", "other");
        assertEquals(Main.FAILED, ours.status());
        assertEquals("Killed topology: " + TOPOLOGY + "\nKilled topology: other\n", ours.out());
        assertTrue(ours.err().endsWith("microburst: kill: 2 of the 4 topologies named could not be killed (see "
            + "above)\n"), ours.err());
        assertEquals(storms, drain(), "-i: every valid name tried");
    }

    /** The calls received since the last drain, each as a list (name, then arguments). */
    private List<List<Object>> drain() {
        synchronized (calls) {
            List<List<Object>> taken = new ArrayList<>();
            calls.forEach(c -> taken.add(Arrays.asList(c)));
            calls.clear();
            return taken;
        }
    }

    @Test
    void monitorPrintsStormsColumnsAndFirstLine() throws Exception {
        info = new TopologyInfo("wordcount-1-1764240000", TOPOLOGY, 75, List.of(executor("split", 1, 40, 30),
            executor("split", 2, 2, 1), executor("count", 3, 7, 7)), "ACTIVE", Map.of());
        for (String watch : List.of("emitted", "transferred")) {
            String[] args = {"-m", "split", "-i", "1", "-w", watch, TOPOLOGY};
            String storms = firstTwoLines(args);
            assertTrue(storms.contains("\tsplit\t2\tdefault\t0\t"), storms);
            List<String> ours = new ArrayList<>(List.of("monitor"));
            ours.addAll(List.of(args));
            ours.addAll(List.of("--samples", "1"));
            Run run = microburst(ours.toArray(String[]::new));
            assertEquals(Main.OK, run.status(), run.err());
            assertEquals(storms, run.out(), watch);
        }
        Run absent = microburst("monitor", "-m", "nosuchcomp", TOPOLOGY);
        assertEquals(Main.FAILED, absent.status());
        assertEquals("microburst: monitor: topology 'wordcount' has no component 'nosuchcomp'; its components: count,"
            + " split (use -m with one)\n", absent.err());
    }

    /** Storm's Monitor loops forever: its header and first line (printed at once), then an interrupt ends it. */
    private String firstTwoLines(String[] args) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (NimbusClient.LocalOverride ignored = new NimbusClient.LocalOverride(nimbus())) {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            Thread monitor = new Thread(() -> {
                try {
                    org.apache.storm.command.Monitor.main(args);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "storm-monitor");
            monitor.start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (out.toString(StandardCharsets.UTF_8).split("\n", -1).length < 3 && monitor.isAlive()
                && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            monitor.interrupt(); // Storm's poller stops on an interrupt
            monitor.join();
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        assertEquals(null, failure.get());
        String[] lines = out.toString(StandardCharsets.UTF_8).split("\n");
        return lines[0] + "\n" + lines[1] + "\n";
    }

    private static ExecutorSummary executor(String component, int task, long emitted, long transferred) {
        ExecutorSummary summary = new ExecutorSummary(new ExecutorInfo(task, task), component, "127.0.0.1", 1024, 75);
        ExecutorStats stats = new ExecutorStats();
        stats.set_emitted(Map.of(":all-time", Map.of("default", emitted)));
        stats.set_transferred(Map.of(":all-time", Map.of("default", transferred)));
        summary.set_stats(stats);
        return summary;
    }

    @Test
    void aTopologyThatIsNotRunningIsOneLineThatSaysWhatToDo() throws Exception {
        for (String verb : List.of("kill", "activate", "deactivate", "rebalance")) {
            Run run = microburst(verb, "nosuch");
            assertEquals(Main.FAILED, run.status(), verb);
            assertEquals("microburst: " + verb + ": no topology named 'nosuch' is running; 'microburst list' shows the"
                + " running ones\n", run.err(), verb);
        }
    }
}
