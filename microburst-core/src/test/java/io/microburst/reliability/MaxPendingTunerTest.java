package io.microburst.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.microburst.reliability.MaxPendingTuner.Action;
import org.junit.jupiter.api.Test;

class MaxPendingTunerTest {
    @Test
    void firstCallIncreasesByAQuarter() {
        MaxPendingTuner t = new MaxPendingTuner(1000);
        t.autoTune(500);
        assertEquals(1250, t.get());
        assertEquals(Action.INCREASE, t.lastAction());
    }

    @Test
    void increaseThatDoesNotHelpIsUndone() {
        MaxPendingTuner t = new MaxPendingTuner(1000);
        t.autoTune(500);
        t.autoTune(501); // similar progress after the increase: back to 1000
        assertEquals(1000, t.get());
        assertEquals(Action.NO_CHANGE, t.lastAction());
    }

    @Test
    void fallingProgressDecreasesByTheLargerOfAQuarterAndTheDrop() {
        MaxPendingTuner t = new MaxPendingTuner(1000);
        t.autoTune(1000); // 1250
        t.autoTune(400); // progress fell 60%: 1250 * 0.4
        assertEquals(500, t.get());
        assertEquals(Action.DECREASE, t.lastAction());
        t.autoTune(400); // after a decrease, anything but a rise is no change
        assertEquals(500, t.get());
        assertEquals(Action.NO_CHANGE, t.lastAction());
    }

    @Test
    void risingProgressKeepsIncreasingAndFiveFlatTurnsProbeUpwards() {
        MaxPendingTuner t = new MaxPendingTuner(100);
        t.autoTune(100); // 125
        t.autoTune(200); // 156
        assertEquals(156, t.get());
        t.autoTune(200); // similar after increase: restore 125
        assertEquals(125, t.get());
        for (int i = 0; i < 4; i++) {
            t.autoTune(200);
            assertEquals(125, t.get());
        }
        t.autoTune(200); // fifth flat turn: probe
        assertEquals(156, t.get());
        assertEquals(Action.INCREASE, t.lastAction());
    }
}
