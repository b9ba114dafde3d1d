package io.microburst.runtime.executor;

import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.policy.IWaitStrategy;
import org.apache.storm.policy.IWaitStrategy.WaitSituation;
import org.apache.storm.policy.WaitStrategyPark;
import org.apache.storm.policy.WaitStrategyProgressive;
import org.apache.storm.utils.ObjectReader;

/**
 * What an executor does while its spouts' {@code nextTuple} emits nothing: Storm's spout wait strategy
 * ({@code topology.spout.wait.strategy}), read from the spout's configuration as Storm reads it.
 *
 * <ul>
 *   <li>{@link WaitStrategyProgressive} (Storm's default): {@code level1.count} turns without waiting, then
 *       {@code level2.count} of the shortest park, then parks of {@code level3.sleep.millis} each. Storm's defaults
 *       are 0, 0 and 1 ms: a spout with nothing to emit is polled again a millisecond later.</li>
 *   <li>{@link WaitStrategyPark}: parks of {@code topology.spout.wait.park.microsec} each; 0 spins.</li>
 *   <li>Any other {@link IWaitStrategy}: the user's instance, called as Storm calls it.</li>
 * </ul>
 * The built-in strategies park where Storm sleeps, so anything that arrives for the executor (a tuple for a bolt it
 * runs, a completed tuple tree, a command) wakes it at once; only the next poll of the spouts waits. A user's strategy
 * is user code, and the executor cannot wake it early.
 *
 * <p>Threading: immutable; a user's strategy is called on the spout's executor thread only.
 */
final class SpoutWait {
    private final int spinTurns;
    private final int shortParks;
    private final long parkNanos;
    private final IWaitStrategy custom;

    private SpoutWait(int spinTurns, int shortParks, long parkNanos, IWaitStrategy custom) {
        this.spinTurns = spinTurns;
        this.shortParks = shortParks;
        this.parkNanos = parkNanos;
        this.custom = custom;
    }

    /**
     * The strategy a spout's configuration names.
     *
     * @throws IllegalArgumentException naming the component when the class cannot be loaded, is not an
     *     {@link IWaitStrategy}, or a count or time is negative
     */
    static SpoutWait of(Map<String, Object> conf, ClassLoader loader, String componentId) {
        Object name = conf.get(Config.TOPOLOGY_SPOUT_WAIT_STRATEGY);
        String className = name == null ? WaitStrategyProgressive.class.getName() : name.toString();
        if (className.equals(WaitStrategyProgressive.class.getName())) {
            return new SpoutWait(
                nonNegative(conf, Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL1_COUNT, 0, componentId),
                nonNegative(conf, Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL2_COUNT, 0, componentId),
                1_000_000L * nonNegative(conf, Config.TOPOLOGY_SPOUT_WAIT_PROGRESSIVE_LEVEL3_SLEEP_MILLIS, 1, componentId),
                null);
        }
        if (className.equals(WaitStrategyPark.class.getName())) {
            long micros = nonNegative(conf, Config.TOPOLOGY_SPOUT_WAIT_PARK_MICROSEC, 100, componentId);
            return micros == 0 ? new SpoutWait(Integer.MAX_VALUE, 0, 0, null) : new SpoutWait(0, 0, micros * 1000, null);
        }
        IWaitStrategy strategy;
        try {
            Object instance = Class.forName(className, true, loader).getDeclaredConstructor().newInstance();
            if (!(instance instanceof IWaitStrategy s)) {
                throw new IllegalArgumentException("Spout '" + componentId + "': " + Config.TOPOLOGY_SPOUT_WAIT_STRATEGY
                    + " names " + className + ", which is not an " + IWaitStrategy.class.getName());
            }
            strategy = s;
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new IllegalArgumentException("Spout '" + componentId + "': cannot create the "
                + Config.TOPOLOGY_SPOUT_WAIT_STRATEGY + " " + className + ": " + e, e);
        }
        strategy.prepare(conf, WaitSituation.SPOUT_WAIT);
        return new SpoutWait(0, 0, 0, strategy);
    }

    private static int nonNegative(Map<String, Object> conf, String key, int absent, String componentId) {
        Object value = conf.get(key);
        int n = value == null ? absent : ObjectReader.getInt(value);
        if (n < 0) {
            throw new IllegalArgumentException("Spout '" + componentId + "': " + key + " must not be negative: " + n);
        }
        return n;
    }

    /** The user's strategy, or null for a built-in one. */
    IWaitStrategy custom() {
        return custom;
    }

    /**
     * How long to park after {@code idleTurns} turns in a row on which the spouts emitted nothing (0 for the first):
     * 0 means do not park, spin once.
     */
    long parkNanos(int idleTurns) {
        if (idleTurns < spinTurns) {
            return 0;
        }
        if (idleTurns - spinTurns < shortParks) {
            return 1;
        }
        return parkNanos;
    }
}
