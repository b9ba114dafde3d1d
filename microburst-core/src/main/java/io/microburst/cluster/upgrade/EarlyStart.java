package io.microburst.cluster.upgrade;

import io.microburst.plan.ComponentPlan;
import io.microburst.plan.TopologyPlan;
import io.microburst.plan.UserObjects;
import java.util.Set;
import java.util.TreeSet;
import org.apache.storm.spout.ShellSpout;
import org.apache.storm.task.ShellBolt;

/**
 * Which components of a new version start while the old version still runs: the multi-lang ones (storm-client's
 * {@link ShellBolt} and {@link ShellSpout}), whose open or prepare starts a subprocess and waits for its handshake,
 * seconds where the interpreter is slow to start. They hold no state an upgrade hands over and do nothing visible
 * until they get a tuple or a {@code nextTuple}, which the new version gives them only once the old one stopped (see
 * {@code StartGate}). Every other component (stateful bolts, Storm's checkpoint spout, Trident's coordinators, which
 * read their transaction when they open, spouts that read their positions) starts only after the old version's
 * final commit, except Trident's coordinators when their state is in our transactional state server: they open early
 * too, their ZooKeeper clients connect and create their roots beside the old version, while the server holds their
 * reads until the old version stopped ({@code StateReadHold}); they block in their open meanwhile.
 *
 * <p>Threading: stateless; the upgrading thread.
 */
final class EarlyStart {
    private EarlyStart() {
    }

    /** The ids of {@code plan}'s Trident coordinators ({@link TridentCoordinators}). */
    static Set<String> coordinators(TopologyPlan plan) {
        Set<String> ids = new TreeSet<>();
        for (String id : plan.components().keySet()) {
            if (TridentCoordinators.isCoordinator(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** How many tasks {@code components} of {@code plan} have. */
    static int tasks(TopologyPlan plan, Set<String> components) {
        int tasks = 0;
        for (String id : components) {
            tasks += plan.components().get(id).taskIds().size();
        }
        return tasks;
    }

    /** The ids of {@code plan}'s components that may start early, their objects made with {@code loader}. */
    static Set<String> components(TopologyPlan plan, ClassLoader loader) {
        Set<String> early = new TreeSet<>();
        for (ComponentPlan c : plan.components().values()) {
            Object instance = UserObjects.instantiate(c.object(), loader, c.id());
            if (instance instanceof ShellBolt || instance instanceof ShellSpout) {
                early.add(c.id());
            }
        }
        return early;
    }
}
