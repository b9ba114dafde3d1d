package io.microburst.runtime.task;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import io.microburst.reliability.TupleTree;

/**
 * The trees a spout task's timeout sweep expires: each fails back to the spout as before, and, once the sweep is done,
 * the list goes to the topology, which finds the task that last held each (see {@code TupleWhereabouts}) and records
 * it in the {@link TreeLog}. A sweep that expires nothing costs nothing more.
 *
 * <p>Threading: the spout task's executor thread.
 */
final class TimedOutTrees implements Consumer<TupleTree> {
    private final SpoutTask spout;
    private final List<TupleTree> expired = new ArrayList<>();

    TimedOutTrees(SpoutTask spout) {
        this.spout = spout;
    }

    @Override
    public void accept(TupleTree tree) {
        spout.timedOut(tree);
        if (tree.state() == TupleTree.EXPIRED) {
            expired.add(tree);
        }
    }

    /** The sweep is done: hands what it expired to the topology. */
    void handOver() {
        if (!expired.isEmpty()) {
            spout.host.treesTimedOut(List.copyOf(expired));
            expired.clear();
        }
    }
}
