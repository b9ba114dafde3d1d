package io.microburst.it.support;

/** A hook callback: which component and task it ran for, which callback, and a detail (stream, values...) to check. */
public record HookEvent(String component, int taskId, String callback, String detail) {
}
