package io.microburst.cli.remote;

import io.microburst.cli.CommandFailedException;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.ObjectReader;

/**
 * Which topologies a {@code microburst submit} added to its Nimbus: the ids running before the main, compared with
 * those after. For each new one it prints {@code Submitted topology: NAME}, then its id and the URL of its page (the
 * server's web UI, or a Storm cluster's UI: both serve {@code /topology.html?id=ID}), built from the leader's host
 * and the {@code ui.port} the Nimbus reports ({@code getNimbusConf}). A topology someone else submits at the same
 * moment would be printed too.
 *
 * <p>Threading: the calling thread.
 */
final class SubmittedTopologies {
    private final Map<String, Object> conf;
    private final Set<String> idsBefore;

    private SubmittedTopologies(Map<String, Object> conf, Set<String> idsBefore) {
        this.conf = conf;
        this.idsBefore = idsBefore;
    }

    /** The topologies running now; fails, with the one line for it, when no Nimbus answers. */
    static SubmittedTopologies before(Map<String, Object> conf) throws Exception {
        Set<String> ids = new HashSet<>();
        NimbusCall.run("submit", conf, null, nimbus -> nimbus.getTopologySummaries().forEach(t -> ids.add(t.get_id())));
        return new SubmittedTopologies(conf, ids);
    }

    void printNew(PrintStream out, String mainClass) throws Exception {
        List<TopologySummary> added = new ArrayList<>();
        AtomicReference<String> pageRoot = new AtomicReference<>();
        NimbusCall.run("submit", conf, null, nimbus -> {
            for (TopologySummary t : nimbus.getTopologySummaries()) {
                if (!idsBefore.contains(t.get_id())) {
                    added.add(t);
                }
            }
            if (!added.isEmpty()) {
                Object nimbusConf = JSONValue.parse(nimbus.getNimbusConf());
                Map<?, ?> map = nimbusConf instanceof Map<?, ?> m ? m : Map.of();
                // with ui.https.port set the pages are on HTTPS (and, as Storm's UI, often there only)
                int httpsPort = ObjectReader.getInt(map.get("ui.https.port"), 0);
                pageRoot.set((httpsPort > 0 ? "https://" : "http://") + nimbus.getLeader().get_host() + ":"
                    + (httpsPort > 0 ? httpsPort : ObjectReader.getInt(map.get("ui.port"), 8080)));
            }
        });
        if (added.isEmpty()) {
            throw new CommandFailedException("submit: " + mainClass + ".main returned without submitting a topology"
                + " ('microburst list' shows what runs)");
        }
        for (TopologySummary t : added) {
            out.println("Submitted topology: " + t.get_name());
            out.println("  id:   " + t.get_id());
            out.println("  page: " + pageRoot.get() + "/topology.html?id="
                + URLEncoder.encode(t.get_id(), StandardCharsets.UTF_8));
            printUpgrade(out, t);
        }
        out.flush();
    }

    /** The upgrade that made {@code t}, as the server tells it (version, ids, time, output gap), if it was one. */
    static void printUpgrade(PrintStream out, TopologySummary t) {
        String status = t.is_set_sched_status() ? t.get_sched_status() : "";
        if (status.startsWith("upgraded to version ")) {
            out.println("  " + status);
        }
    }
}
