package io.microburst.localcluster;

import io.microburst.MicroburstCluster;
import java.util.HashMap;
import java.util.Map;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.NimbusSummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.Utils;
import org.apache.storm.utils.VersionInfo;

/**
 * What {@code LocalCluster}'s Nimbus calls do beyond forwarding to the cluster: the configuration checks of a submit,
 * the leader, whether a topology name is free.
 *
 * <p>Stateless; any thread.
 */
public final class NimbusCalls {
    private NimbusCalls() {
    }

    /** Kill options to kill at once (Storm's {@code KILL_NOW}). */
    public static KillOptions killNow() {
        KillOptions now = new KillOptions();
        now.set_wait_secs(0);
        return now;
    }

    /**
     * Refuses a topology configuration JSON cannot carry, as Storm's LocalCluster does.
     *
     * @throws IllegalArgumentException saying what a configuration may hold
     */
    public static void checkConf(Map<String, Object> conf) {
        if (!Utils.isValidConf(conf)) {
            throw new IllegalArgumentException("Topology conf is not json-serializable: it may hold only strings, "
                + "numbers, booleans, and lists and maps of them");
        }
    }

    /**
     * The configuration Nimbus's submit call carries as JSON; an empty one for null.
     *
     * @throws IllegalArgumentException if it is not a JSON object
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseConf(String jsonConf) {
        if (jsonConf == null) {
            return new HashMap<>();
        }
        Object conf = JSONValue.parse(jsonConf);
        if (!(conf instanceof Map)) {
            throw new IllegalArgumentException("The topology configuration is not a JSON object: " + jsonConf);
        }
        return (Map<String, Object>) conf;
    }

    /** This process, the only Nimbus there is, hence the leader, up since {@code startMillis}. */
    public static NimbusSummary leader(long startMillis) {
        int uptimeSecs = (int) ((System.currentTimeMillis() - startMillis) / 1000);
        return new NimbusSummary("localhost", 0, uptimeSecs, true, VersionInfo.getVersion());
    }

    /** Whether {@code name} is a valid topology name that no topology of {@code engine} has. */
    public static boolean isNameAllowed(MicroburstCluster engine, String name) {
        try {
            Utils.validateTopologyName(name);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return engine.getTopologySummaries().stream().noneMatch(t -> name.equals(t.get_name()));
    }
}
