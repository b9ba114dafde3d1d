package io.microburst.cluster.upgrade;

/**
 * Where one upgrade's time went, each phase as {@link System#nanoTime()} at its end, for the log and the
 * measurements: the output gap runs from {@code drained} (the old version's last tree completed) to the new
 * version's first ack, which only its spouts see.
 *
 * <p>Threading: immutable.
 *
 * @param start the upgrade began (the submit arrived)
 * @param checked the new version was planned and checked, its components deserialized
 * @param early the new version's threads started beside the old, its multi-lang components opened or prepared
 *     (subprocesses started), its other tasks held back ({@code EarlyStart}); the old checkpoint spout awake
 * @param drained the old version's spouts, deactivated, had their last tree complete (or the wait ran out)
 * @param quiet the old version's checkpoint spout stopped with its final checkpoint committed
 * @param oldStopped the old version stopped as a kill stops it (tasks closed, subprocesses ended)
 * @param handedOver the state was handed over and the new version listed under the name
 * @param started the new version's threads started and it was activated (its tasks open on their threads)
 */
public record UpgradePhases(long start, long checked, long early, long drained, long quiet, long oldStopped,
                            long handedOver, long started) {
    /** One line: each phase's milliseconds. */
    public String describe() {
        return "check " + ms(start, checked) + " ms, early start " + ms(checked, early) + " ms, drain "
            + ms(early, drained) + " ms, final checkpoint " + ms(drained, quiet) + " ms, stop old "
            + ms(quiet, oldStopped) + " ms, state hand-over " + ms(oldStopped, handedOver) + " ms, start new "
            + ms(handedOver, started) + " ms";
    }

    private static String ms(long from, long to) {
        return String.format(java.util.Locale.ROOT, "%.1f", (to - from) / 1e6);
    }
}
