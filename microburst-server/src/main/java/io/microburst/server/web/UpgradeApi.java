package io.microburst.server.web;

import io.microburst.cluster.upgrade.UpgradeHistory;
import io.microburst.cluster.upgrade.UpgradeOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.apache.storm.generated.AlreadyAliveException;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;
import org.apache.storm.utils.WrappedInvalidTopologyException;
import org.eclipse.jetty.util.Fields;

/**
 * Microburst's upgrade through the web port: {@code POST /api/v1/topology/ID/upgrade?main=CLASS&args=A&args=B
 * &wait=SECS&rename=OLD=NEW&dropState=COMPONENT} with the new jar as the body ({@link UpgradeBody}: raw or multipart),
 * and {@code POST /api/v1/topology/ID/rollback}. The same path as {@code microburst upgrade}: the upgrade is announced
 * to Nimbus, the jar's main runs as {@code storm jar} runs it ({@link JarMains}: in a JVM of its own) with the upgrade's
 * keys in its configuration, and its submit of the topology's name is taken as the new version; a rollback is Nimbus'
 * rebalance asking {@value UpgradeOptions#ROLLBACK}. The answer names the new version, its id and the output gap;
 * a refusal is answered 400 with the one line naming the component and the reason, the old version running on.
 *
 * <p>Thread-safe: one upgrade or rollback at a time, a second is answered 409 while it runs.
 */
final class UpgradeApi {
    private static final Set<String> PARAMETERS = Set.of("main", "args", "wait", "rename", "dropState");
    private static final Pattern CLASS_NAME = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");

    private final Nimbus.Iface nimbus;
    private final JarMains mains;
    /** The name whose upgrade or rollback runs, or null. */
    private final AtomicReference<String> running = new AtomicReference<>();

    UpgradeApi(Nimbus.Iface nimbus, JarMains mains) {
        this.nimbus = nimbus;
        this.mains = mains;
    }

    /** The upgrade; {@code body} gives the jar. */
    Map<String, Object> upgrade(String id, Fields query, UpgradeBody body) throws Exception {
        Map<String, Object> conf = upgradeConf(query);
        String main = query.getValue("main");
        TopologySummary before = nimbus.getTopologySummary(id);
        String name = before.get_name();
        conf.put(UpgradeOptions.NAME, name);
        claim(name);
        try {
            RebalanceOptions announce = new RebalanceOptions();
            announce.set_topology_conf_overrides(JSONValue.toJSONString(Map.of(UpgradeOptions.EXPECT, true)));
            nimbus.rebalance(name, announce);
            mains.run("upgrade of topology '" + name + "'", body.jar(mains), main, values(query, "args"), conf);
            return answer("upgrade", before, main);
        } finally {
            running.set(null);
        }
    }

    /** The rollback to the version before the last upgrade, kept by the server. */
    Map<String, Object> rollback(String id) throws TException {
        TopologySummary before = nimbus.getTopologySummary(id);
        claim(before.get_name());
        try {
            RebalanceOptions rollback = new RebalanceOptions();
            rollback.set_topology_conf_overrides(JSONValue.toJSONString(Map.of(UpgradeOptions.ROLLBACK, true)));
            nimbus.rebalance(before.get_name(), rollback);
            return answer("rollback", before, null);
        } finally {
            running.set(null);
        }
    }

    private void claim(String name) throws AlreadyAliveException {
        if (!running.compareAndSet(null, name)) {
            throw new AlreadyAliveException("an upgrade or rollback of topology '" + running.get() + "' is in progress "
                + "through the web port; try again once it is done");
        }
    }

    /** The upgrade's keys from the query, every parameter checked. */
    private static Map<String, Object> upgradeConf(Fields query) {
        for (String given : query.getNames()) {
            if (!PARAMETERS.contains(given)) {
                throw new IllegalArgumentException("upgrade: unknown parameter '" + QueryParameters.shown(given)
                    + "' (use main, args, wait, rename, dropState)");
            }
        }
        String main = query.getValue("main");
        if (main == null || !CLASS_NAME.matcher(main).matches()) {
            throw new IllegalArgumentException("upgrade: parameter main must name the new jar's main class (such as "
                + "main=com.example.WordCount), got '" + QueryParameters.shown(main) + "'");
        }
        Map<String, Object> conf = new LinkedHashMap<>();
        conf.put(UpgradeOptions.UPGRADE, true);
        String wait = query.getValue("wait");
        if (wait != null) {
            if (!wait.matches("\\d{1,9}")) {
                throw new IllegalArgumentException("upgrade: parameter wait must be a whole number of seconds, 0 or "
                    + "more, got '" + QueryParameters.shown(wait) + "'");
            }
            conf.put(UpgradeOptions.WAIT_SECS, Integer.parseInt(wait));
        }
        List<String> renames = values(query, "rename");
        for (String rename : renames) {
            int eq = rename.indexOf('=');
            if (eq <= 0 || eq == rename.length() - 1) {
                throw new IllegalArgumentException("upgrade: parameter rename takes OLD=NEW (component ids), got '"
                    + QueryParameters.shown(rename) + "'");
            }
        }
        if (!renames.isEmpty()) {
            conf.put(UpgradeOptions.RENAME, renames);
        }
        List<String> dropped = values(query, "dropState");
        if (dropped.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("upgrade: parameter dropState must name a component");
        }
        if (!dropped.isEmpty()) {
            conf.put(UpgradeOptions.DROP_STATE, dropped);
        }
        return conf;
    }

    private static List<String> values(Fields query, String name) {
        List<String> values = query.getValues(name);
        return values == null ? List.of() : new ArrayList<>(values);
    }

    /** What the upgrade made, from the topology's summary (its {@code sched_status} tells the last upgrade). */
    private Map<String, Object> answer(String what, TopologySummary before, String main) throws TException {
        TopologySummary after = nimbus.getTopologySummaryByName(before.get_name());
        if (after.get_id().equals(before.get_id())) {
            throw new WrappedInvalidTopologyException("upgrade of topology '" + before.get_name() + "': " + main
                + ".main returned without submitting topology '" + before.get_name() + "'; the running version is "
                + "unchanged (give the main that submits it, with its arguments)");
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologyOperation", what);
        json.put("topologyId", after.get_id());
        json.put("previousTopologyId", before.get_id());
        json.put("topologyName", after.get_name());
        json.put("status", "success");
        UpgradeHistory.Upgrade.parse(after.get_sched_status()).ifPresent(upgrade -> {
            json.put("version", upgrade.version());
            json.put("outputGapMs", upgrade.gapMillis());
            json.put("replayed", upgrade.failedBack());
        });
        json.put("schedulerInfo", after.get_sched_status());
        return json;
    }
}
