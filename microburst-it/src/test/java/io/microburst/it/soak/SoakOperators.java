package io.microburst.it.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologySummary;

/**
 * The operators: a loop that activates, deactivates, rebalances and reads the soak's topologies and submits and kills
 * throwaway ones, half through Thrift and half through the REST API, and keeps the model of what each topology's
 * status must be (the test is the only operator, so the model is exact). Each operation runs under {@link #lock},
 * which the test takes to kill the server, so that no operation is half done at a kill (a call that the server
 * acknowledged was stored before; one cut off by the kill would be ambiguous). Runs on its own thread; the model is
 * read by the test's thread while it holds the lock.
 */
final class SoakOperators implements Runnable {
    private static final int MAX_THROWAWAYS = 2;
    /** While hammering: 50 ms between operations, about ten times the usual pace. */
    static final long HAMMER_PAUSE_MILLIS = 50;

    final ReentrantLock lock = new ReentrantLock();
    /** Name to the status it must have: ACTIVE or INACTIVE. */
    final Map<String, String> expected = new ConcurrentHashMap<>();
    volatile boolean hammer;
    volatile boolean running = true;

    private final SoakClient client;
    private final SoakTopologies topologies;
    private final List<String> checked;
    private final List<String> spared;
    private final Random random;
    private final List<String> throwaways = new ArrayList<>();
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int nextThrowaway;

    SoakOperators(SoakClient client, SoakTopologies topologies, List<String> checked, long seed) {
        this.client = client;
        this.topologies = topologies;
        this.checked = checked;
        this.spared = checked.stream().filter(n -> !n.startsWith("java-") || Integer.parseInt(n.substring(5))
            >= SoakTopologies.FAST).toList();
        this.random = new Random(seed);
    }

    @Override
    public void run() {
        while (running) {
            lock.lock();
            try {
                operateOnce();
            } catch (Exception e) {
                synchronized (failures) {
                    failures.add(e.toString());
                }
                count("failed");
            } finally {
                lock.unlock();
            }
            pause(hammer ? HAMMER_PAUSE_MILLIS : 200 + random.nextInt(600));
        }
    }

    private void operateOnce() throws Exception {
        Map<String, TopologySummary> live = client.topologies();
        // while hammering, the full-speed topologies being measured are left alone (a rebalance restarts counters)
        List<String> pool = hammer ? spared : checked;
        String name = pool.get(random.nextInt(pool.size()));
        TopologySummary summary = live.get(name);
        boolean rest = random.nextBoolean();
        String how = rest ? " (REST)" : " (Thrift)";
        int action = random.nextInt(10);
        if (action < 3 && isSettled(summary)) {
            boolean activate = "INACTIVE".equals(expected.get(name));
            if (rest) {
                client.post("/api/v1/topology/" + summary.get_id() + (activate ? "/activate" : "/deactivate"), null);
            } else if (activate) {
                client.nimbus(n -> {
                    n.activate(name);
                    return null;
                });
            } else {
                client.nimbus(n -> {
                    n.deactivate(name);
                    return null;
                });
            }
            expected.put(name, activate ? "ACTIVE" : "INACTIVE");
            count((activate ? "activate" : "deactivate") + how);
        } else if (action < 5 && isSettled(summary)) {
            int split = 1 + random.nextInt(3);
            boolean executors = name.startsWith("java-");
            if (rest) {
                client.post("/api/v1/topology/" + summary.get_id() + "/rebalance/0", executors
                    ? "{\"rebalanceOptions\": {\"executors\": {\"split\": " + split + "}}}" : null);
            } else {
                RebalanceOptions options = new RebalanceOptions();
                options.set_wait_secs(0);
                if (executors) {
                    options.put_to_num_executors("split", split);
                }
                client.nimbus(n -> {
                    n.rebalance(name, options);
                    return null;
                });
            }
            count("rebalance" + how);
        } else if (action < 7) {
            throwaway(live, rest, how);
        } else {
            client.nimbus(n -> n.getTopologyInfo(summary.get_id()));
            client.get("/api/v1/topology/" + summary.get_id() + "?window=600");
            count("read");
        }
    }

    private void throwaway(Map<String, TopologySummary> live, boolean rest, String how) throws Exception {
        if (throwaways.size() < MAX_THROWAWAYS) {
            String name = "tmp-" + nextThrowaway++;
            client.submit(topologies.throwaway(name), true);
            throwaways.add(name);
            expected.put(name, "ACTIVE");
            count("submit throwaway");
            return;
        }
        String name = throwaways.remove(random.nextInt(throwaways.size()));
        if (rest) {
            client.post("/api/v1/topology/" + live.get(name).get_id() + "/kill/0", null);
        } else {
            KillOptions options = new KillOptions();
            options.set_wait_secs(0);
            client.nimbus(n -> {
                n.killTopologyWithOpts(name, options);
                return null;
            });
        }
        expected.remove(name);
        count("kill throwaway" + how);
    }

    /** A topology that is not between two states (a rebalance with wait 0 settles at once, but may be mid-way). */
    private static boolean isSettled(TopologySummary summary) {
        return summary != null && ("ACTIVE".equals(summary.get_status())
            || "INACTIVE".equals(summary.get_status()));
    }

    private void count(String what) {
        counts.computeIfAbsent(what, k -> new AtomicLong()).incrementAndGet();
    }

    SortedMap<String, Long> counts() {
        SortedMap<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    long total() {
        return counts.values().stream().mapToLong(AtomicLong::get).sum();
    }

    List<String> failures() {
        synchronized (failures) {
            return new ArrayList<>(failures);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // an operator's pace between two commands, not a wait for a result
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
