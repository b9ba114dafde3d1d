package io.microburst.runtime.cost;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import io.microburst.plan.PlacementPolicy;

/**
 * The last few placement windows of one executor added up, so a cut is decided on several seconds of measurement
 * rather than one: one window's sampled execute times swing (WordCount p=1's cut at count was predicted 1.19-1.32x
 * window to window, around the least gain of 1.2), so a decision on one window, even confirmed by the next, came out
 * differently from run to run, and with it the layout and the figure. Summed over {@link #WINDOWS} windows the
 * estimate's noise shrinks by about the square root of that. A window that is not busy, or whose fused tasks differ
 * (a task moved), starts the sum afresh; nothing is decided before the sum holds {@link #WINDOWS} windows, nor while
 * they are not {@link #steady}: the chain's speed on a core (tuples at its first fused task per nanosecond of work) must
 * agree within {@link #STEADY_SPREAD} across them. At start the JIT compiles the chain as it runs, and its speed
 * rises window to window by 1.5x and more; costs sampled then are those of code about to change, and a cut decided on
 * them (at the chain's head, in WordCount p=1's runs) was made in some runs and not in others.
 *
 * <p>Threading: the executor's own thread only (its balancer's); not thread-safe.
 */
public final class WindowSum {
    /** Windows added up. */
    public static final int WINDOWS = 3;
    /** The most the chain's speed on a core may differ between the windows summed (fastest over slowest). */
    public static final double STEADY_SPREAD = 1.15;

    private final Deque<PlacementPolicy.Window> windows = new ArrayDeque<>();

    /**
     * Adds {@code w}; returns the sum of the last {@link #WINDOWS} windows once there are that many, else {@code w}
     * itself when it is not busy (the policy then declines it), else null (too early to decide).
     */
    public PlacementPolicy.Window add(PlacementPolicy.Window w) {
        if (!w.busy()) {
            windows.clear();
            return w;
        }
        PlacementPolicy.Window last = windows.peekLast();
        if (last != null && !samePoints(last, w)) {
            windows.clear();
        }
        windows.addLast(w);
        while (windows.size() > WINDOWS) {
            windows.removeFirst();
        }
        return windows.size() < WINDOWS || !steady(windows) ? null : sum();
    }

    /**
     * Whether the chain ran at one speed through {@code windows}: tuples at the first fused task per nanosecond of the
     * thread's work ({@link PlacementPolicy.Window#busyNanos}), fastest over slowest at most {@link #STEADY_SPREAD}.
     * Its speed on a core, not its rate: a thread that waited for a core ran fewer tuples at the same speed.
     */
    public static boolean steady(Iterable<PlacementPolicy.Window> windows) {
        double fastest = 0;
        double slowest = Double.MAX_VALUE;
        for (PlacementPolicy.Window w : windows) {
            long busy = w.busyNanos();
            if (w.points().isEmpty() || busy <= 0) {
                return false;
            }
            double speed = (double) w.points().get(0).tuples() / busy;
            fastest = Math.max(fastest, speed);
            slowest = Math.min(slowest, speed);
        }
        return slowest > 0 && fastest <= slowest * STEADY_SPREAD;
    }

    /** Forgets every window (the layout changed). */
    public void clear() {
        windows.clear();
    }

    private static boolean samePoints(PlacementPolicy.Window a, PlacementPolicy.Window b) {
        if (a.points().size() != b.points().size()) {
            return false;
        }
        for (int i = 0; i < a.points().size(); i++) {
            if (!a.points().get(i).name().equals(b.points().get(i).name())) {
                return false;
            }
        }
        return true;
    }

    private PlacementPolicy.Window sum() {
        long elapsed = 0;
        long parked = 0;
        long waits = 0;
        PlacementPolicy.Window first = windows.peekFirst();
        long[] tuples = new long[first.points().size()];
        long[] spent = new long[tuples.length];
        for (PlacementPolicy.Window w : windows) {
            elapsed += w.elapsedNanos();
            parked += w.parkedNanos();
            waits = waits < 0 || w.waitNanos() < 0 ? -1 : waits + w.waitNanos();
            for (int i = 0; i < tuples.length; i++) {
                PlacementPolicy.Point p = w.points().get(i);
                tuples[i] += p.tuples();
                spent[i] = spent[i] < 0 || p.spentNanos() < 0 ? -1 : spent[i] + p.spentNanos();
            }
        }
        List<PlacementPolicy.Point> points = new ArrayList<>();
        for (int i = 0; i < tuples.length; i++) {
            points.add(new PlacementPolicy.Point(first.points().get(i).name(), tuples[i], spent[i]));
        }
        return new PlacementPolicy.Window(elapsed, parked, points, windows.peekLast().tracking(), waits);
    }
}
