package io.microburst.it.support;

/** A lifecycle callback (open, activate, deactivate, close, prepare, cleanup...) as a task saw it. */
public record LifecycleEvent(String component, int taskId, String callback, Object instanceId) {
}
