package io.microburst.runtime.task;

import java.util.concurrent.atomic.AtomicBoolean;
import io.microburst.plan.TopologyPlan;
import org.apache.storm.task.TopologyContext;

/**
 * What a task needs from the topology that runs it, and all it may ask: contexts for its instances, where other
 * tasks run, and where its failures and errors go. Tasks never see the executors or the lifecycle behind it.
 *
 * <p>Threading: called from the task's executor thread (reportError also from threads of the user's own); every
 * implementation method must be safe for that.
 *
 * <p>Public because the topology ({@code runtime.topology}, {@code TopologyHost}) implements it; tasks call it from
 * their executor's thread.
 */
public interface TaskHost {
    TopologyPlan plan();

    ClassLoader loader();

    /** The topology's debug event sampling, which a task's fresh context takes its sampler from. */
    EventSampling eventSampling();

    TupleContext tupleContext();

    /** Whether tuple trees are tracked ({@code topology.acker.executors} is not 0). Constant for a topology. */
    boolean acking();

    /** Whether spouts should be active now. */
    boolean isActive();

    /** Whether the topology halted (see {@code Supervisor}): no failed task is replaced then. */
    boolean isHalted();

    /** A fresh context for a task's new instance; forgets the metrics its previous instance registered. */
    TopologyContext newTaskContext(TaskRunner task);

    AtomicBoolean preparedFlag(int taskId);

    /** After a task opened or prepared. */
    void taskStarted(TaskRunner task);

    /** A task's user code threw: the instance is gone, and the failure policy decides what follows. */
    void taskFailed(TaskRunner task, Throwable error, String phase);

    /** An error to record for the task (the collector's reportError, a failing hook). */
    void reportError(TaskRunner task, Throwable error);

    /** The bolt task with this id (routes link to it). */
    BoltTask bolt(int taskId);

    /** The inbox of the executor that runs this task now. */
    Inbox inboxOfTask(int taskId);

    /** The topology's recent failed and timed-out tuple trees. Any thread. */
    TreeLog treeLog();

    /** A spout's timeout sweep expired these trees: find the tasks that last held them (see TupleScan). */
    void treesTimedOut(java.util.List<io.microburst.reliability.TupleTree> trees);
}
