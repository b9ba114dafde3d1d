package io.microburst.cluster.upgrade;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.storm.generated.TopologySummary;

/**
 * The upgrades of each topology name, oldest first, as long as the name is listed: the topology's id lineage (each
 * version has an id of its own; {@link Upgrade#fromId} to {@link Upgrade#toId}) and what each upgrade cost.
 *
 * <p>Threading: any thread.
 */
public final class UpgradeHistory {
    /**
     * One upgrade.
     *
     * @param version the version it started, 2 for the first upgrade (the first submit is version 1)
     * @param gapMillis from the old version's last tuple tree completing (or its wait running out) to the new
     *     version's spouts starting
     * @param failedBack tuple trees still pending when the wait ran out, failed back to the old spouts for replay
     */
    public record Upgrade(int version, String fromId, String toId, long atMillis, long gapMillis, long failedBack) {
        /** One line, as the topology's summary shows it. */
        public String describe() {
            return "upgraded to version " + version + " (" + fromId + " -> " + toId + ") at " + Instant.ofEpochMilli(
                atMillis) + ", output gap " + gapMillis + " ms" + (failedBack > 0 ? ", " + failedBack + " replayed" : "");
        }

        /** The upgrade a {@link #describe()} line tells of (a topology summary's {@code sched_status}), if it is one. */
        public static Optional<Upgrade> parse(String line) {
            Matcher m = line == null ? null : DESCRIBED.matcher(line);
            if (m == null || !m.matches()) {
                return Optional.empty();
            }
            return Optional.of(new Upgrade(Integer.parseInt(m.group(1)), m.group(2), m.group(3),
                Instant.parse(m.group(4)).toEpochMilli(), Long.parseLong(m.group(5)),
                m.group(6) == null ? 0 : Long.parseLong(m.group(6))));
        }
    }

    private static final Pattern DESCRIBED = Pattern.compile(
        "upgraded to version (\\d+) \\((\\S+) -> (\\S+)\\) at (\\S+), output gap (\\d+) ms(?:, (\\d+) replayed)?");

    private final Map<String, List<Upgrade>> byName = new ConcurrentHashMap<>();

    /** The upgrades of {@code name}, oldest first; empty when it was never upgraded. */
    public List<Upgrade> of(String name) {
        List<Upgrade> list = byName.get(name);
        if (list == null) {
            return List.of();
        }
        synchronized (list) {
            return List.copyOf(list);
        }
    }

    /** The version the next upgrade of {@code name} makes. */
    int nextVersion(String name) {
        return of(name).size() + 2;
    }

    void add(String name, Upgrade upgrade) {
        List<Upgrade> list = byName.computeIfAbsent(name, n -> new ArrayList<>());
        synchronized (list) {
            list.add(upgrade);
        }
    }

    /**
     * Gives {@code name} the upgrades a server kept across its restart (its topology was just submitted again, as
     * stored), replacing any it has, so that the list and the next version number go on where they were.
     */
    public void restore(String name, List<Upgrade> upgrades) {
        if (upgrades.isEmpty()) {
            byName.remove(name);
        } else {
            byName.put(name, new ArrayList<>(upgrades));
        }
    }

    /** Forgets a name's upgrades (it was killed, or submitted afresh). */
    public void forget(String name) {
        byName.remove(name);
    }

    /** Shows each upgraded topology's last upgrade as its {@code sched_status} (Storm's UI "Scheduler Info"). */
    public List<TopologySummary> annotate(List<TopologySummary> summaries) {
        summaries.forEach(this::annotate);
        return summaries;
    }

    /** As {@link #annotate(List)} for one topology. */
    public TopologySummary annotate(TopologySummary summary) {
        List<Upgrade> list = of(summary.get_name());
        if (!list.isEmpty()) {
            summary.set_sched_status(list.get(list.size() - 1).describe());
        }
        return summary;
    }
}
