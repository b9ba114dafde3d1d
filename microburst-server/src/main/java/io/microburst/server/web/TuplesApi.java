package io.microburst.server.web;

import io.microburst.MicroburstCluster;
import io.microburst.runtime.task.TreeLog;
import io.microburst.runtime.topology.TupleWhereabouts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.NotAliveException;

/**
 * Where are my tuples ({@code /api/v1/topology/{id}/tuples}, Microburst's own path beside Storm's): an acked
 * topology's pending tuple trees grouped by the task that holds them (queued for it, held by its bolt, or executing
 * there), each group with its count, its oldest age and its oldest trees; and the last failed or timed-out trees with
 * why and the task that last held each. Root ids are strings (64-bit, past what a JavaScript number holds exactly).
 * Found on demand ({@link TupleWhereabouts}): each executor scans its own queues between turns, and the request waits
 * at most {@link TupleWhereabouts#WAIT_MS} ms for a thread inside a user call. Stateless; thread-safe.
 */
final class TuplesApi {
    private final MicroburstCluster cluster;

    TuplesApi(MicroburstCluster cluster) {
        this.cluster = cluster;
    }

    Map<String, Object> of(String id) throws NotAliveException, InterruptedException {
        String name = cluster.getTopologySummary(id).get_name();
        TupleWhereabouts.Snapshot s = TupleWhereabouts.snapshot(cluster.getThreadViews(name));
        List<Object> pending = new ArrayList<>();
        for (TupleWhereabouts.Group g : s.groups()) {
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("task", g.task());
            group.put("count", g.count());
            group.put("oldestAgeMs", g.oldestAgeMs());
            group.put("states", g.states());
            List<Object> sample = new ArrayList<>();
            for (TupleWhereabouts.Tree t : g.sample()) {
                Map<String, Object> tree = new LinkedHashMap<>();
                tree.put("rootId", Long.toString(t.rootId()));
                tree.put("messageId", t.messageId());
                tree.put("spoutTask", t.spout());
                tree.put("ageMs", t.ageMs());
                tree.put("ageExact", t.ageExact());
                tree.put("state", t.state());
                sample.add(tree);
            }
            group.put("sample", sample);
            pending.add(group);
        }
        List<Object> recent = new ArrayList<>();
        for (TreeLog.Entry e : s.recent()) {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("rootId", Long.toString(e.rootId()));
            tree.put("messageId", e.messageId());
            tree.put("spout", e.spoutComponent());
            tree.put("spoutTask", e.spoutTask());
            tree.put("timeMs", e.timeMillis());
            tree.put("reason", e.reason());
            tree.put("lastHolder", e.lastHolder());
            recent.add(tree);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", id);
        json.put("name", name);
        json.put("pendingTrees", s.pendingTrees());
        json.put("pending", pending);
        json.put("busyThreads", s.busyThreads());
        json.put("recent", recent);
        json.put("recentCapacity", TreeLog.CAPACITY);
        json.put("tookMs", s.tookMicros() / 1000.0);
        json.put("longestPauseMs", s.longestPauseMicros() / 1000.0);
        return json;
    }
}
