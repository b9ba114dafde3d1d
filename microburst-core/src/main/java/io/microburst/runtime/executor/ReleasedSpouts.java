package io.microburst.runtime.executor;

import java.util.List;

/**
 * Spout tasks ("component:task") closed from the stopping thread while their executor's thread was inside
 * {@code call} (see {@link Executor#releaseStuckSpouts}). Public for the stop sequence ({@code runtime.topology}),
 * which logs it; immutable.
 */
public record ReleasedSpouts(List<String> tasks, StackTraceElement call) {
}
