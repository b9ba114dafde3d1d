package io.microburst.runtime.task;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells what a stop causes from what fails. An executor's thread enters a scope when it starts; every thread started
 * from it afterwards (by user code in open, prepare or execute: storm-client's ShellBolt starts a reader and a writer
 * thread for its subprocess) belongs to the same scope, through an inheritable thread-local read only when something
 * is reported. When the stop is about to end the instances (close, cleanup), the executor marks its scope
 * {@link #ending}: a multi-lang subprocess that cleanup destroys then breaks its pipe, and ShellBolt's reader thread
 * reports "ShellBolt died" through the collector and logs it as an ERROR. From then on such a report is logged at
 * INFO and not counted as an error ({@link TaskRunner#reportError}), and {@link StopLogFilter} keeps storm-client's
 * multi-lang loggers from logging it as an error, as Storm's worker ends them quietly by ending its process. A crash
 * before the stop is reported and logged as before.
 *
 * <p>Threading: {@link #enter} on an executor's thread at its start, {@link #ending} on the same thread as it stops;
 * {@link #endedByStop} on any thread (a volatile read).
 */
public final class StopScope {
    private static final Logger LOG = LoggerFactory.getLogger(StopScope.class);
    private static final InheritableThreadLocal<StopScope> CURRENT = new InheritableThreadLocal<>();

    private volatile boolean ending;

    private StopScope() {
    }

    /** A new scope for the calling thread and the threads it starts from now on. */
    public static StopScope enter() {
        StopScope scope = new StopScope();
        CURRENT.set(scope);
        return scope;
    }

    /** The stop is about to close or clean up the instances of the scope's executor. */
    public void ending() {
        ending = true;
        try {
            StopLogFilter.installOnce();
        } catch (LinkageError otherLoggingBackend) {
            // without log4j2's core there is no filter to install; the reports are still logged at INFO
        }
    }

    /** Whether the calling thread belongs to a scope whose executor is being stopped. */
    public static boolean endedByStop() {
        StopScope scope = CURRENT.get();
        return scope != null && scope.ending;
    }

    /** What a task's collector reports while its executor stops: the stop's doing, logged at INFO. */
    static void reportedWhileStopping(TaskRunner task, Throwable error) {
        LOG.info("Task {} of component '{}' reported, as the stop ended it: {}", task.taskId(), task.componentId(),
            error.toString());
    }
}
