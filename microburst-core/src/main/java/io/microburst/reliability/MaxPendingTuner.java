package io.microburst.reliability;

/**
 * Tunes a spout task's max spout pending from the progress it makes, with the state machine of Storm @Twitter
 * (SIGMOD 2014, section 3.3.3). Progress is the number of tuple trees acked in a period (the measure the paper uses
 * for its Kestrel spout; a spout that can replay acked tuples, like the Kafka spout, would need its committed offset).
 *
 * <p>Increase raises the value by 25%; Decrease lowers it by max(25%, the relative drop in progress); two progress
 * figures within {@value #SIMILAR_PERCENT}% of each other count as similar. Confined to the spout task's thread.
 */
public final class MaxPendingTuner {
    static final int SIMILAR_PERCENT = 5;
    private static final int NO_CHANGE_TURNS_BEFORE_PROBE = 5;

    /** What the tuner did last. */
    public enum Action { INCREASE, DECREASE, NO_CHANGE }

    private long value;
    private long valueBeforeIncrease;
    private long lastProgress = -1;
    private Action lastAction = Action.NO_CHANGE;
    private int noChangeTurns;

    public MaxPendingTuner(long initial) {
        this.value = Math.max(1, initial);
        this.valueBeforeIncrease = value;
    }

    /** Adjusts the value given the progress made since the previous call. */
    public void autoTune(long deltaProgress) {
        long last = lastProgress;
        lastProgress = deltaProgress;
        if (last < 0) {
            increase();
            return;
        }
        int trend = compare(last, deltaProgress);
        switch (lastAction) {
            case NO_CHANGE:
                if (trend > 0) {
                    decrease(last, deltaProgress);
                } else if (trend < 0) {
                    increase();
                } else if (++noChangeTurns >= NO_CHANGE_TURNS_BEFORE_PROBE) {
                    increase();
                } else {
                    lastAction = Action.NO_CHANGE;
                }
                break;
            case INCREASE:
                if (trend > 0) {
                    decrease(last, deltaProgress);
                } else if (trend < 0) {
                    increase();
                } else {
                    value = valueBeforeIncrease;
                    noChange();
                }
                break;
            default:
                if (trend < 0) {
                    increase();
                } else {
                    noChange();
                }
        }
    }

    public long get() {
        return value;
    }

    public Action lastAction() {
        return lastAction;
    }

    /** 1 when progress fell, -1 when it rose, 0 when similar. */
    private static int compare(long last, long current) {
        long tolerance = Math.max(1, Math.abs(last) * SIMILAR_PERCENT / 100);
        if (Math.abs(last - current) <= tolerance) {
            return 0;
        }
        return last > current ? 1 : -1;
    }

    private void increase() {
        valueBeforeIncrease = value;
        value = Math.max(value + 1, value + value / 4);
        lastAction = Action.INCREASE;
        noChangeTurns = 0;
    }

    private void decrease(long last, long current) {
        double drop = last <= 0 ? 0.25 : Math.max(0.25, (double) (last - current) / last);
        value = Math.max(1, (long) Math.floor(value * (1 - Math.min(drop, 0.9))));
        lastAction = Action.DECREASE;
        noChangeTurns = 0;
    }

    private void noChange() {
        lastAction = Action.NO_CHANGE;
        noChangeTurns = 0;
    }
}
