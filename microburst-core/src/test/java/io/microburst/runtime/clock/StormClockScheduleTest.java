package io.microburst.runtime.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.apache.storm.utils.Time;
import org.junit.jupiter.api.Test;

class StormClockScheduleTest {

    @Test
    void entriesFireWhenTheSimulatedClockReachesThem() {
        try (Time.SimulatedTime time = new Time.SimulatedTime()) {
            StormClockSchedule schedule = new StormClockSchedule();
            List<String> fired = new ArrayList<>();
            schedule.add(5_000, 5_000, () -> fired.add("tick@" + Time.currentTimeMillis()));
            schedule.add(3_000, 0, () -> fired.add("once@" + Time.currentTimeMillis()));
            schedule.fireDue();
            assertEquals(List.of(), fired);
            Time.advanceTime(2_999);
            schedule.fireDue();
            assertEquals(List.of(), fired);
            Time.advanceTime(1);
            schedule.fireDue();
            assertEquals(List.of("once@3000"), fired);
            Time.advanceTime(2_000);
            schedule.fireDue();
            assertEquals(List.of("once@3000", "tick@5000"), fired);
            Time.advanceTime(5_000);
            schedule.fireDue();
            assertEquals(List.of("once@3000", "tick@5000", "tick@10000"), fired);
            assertEquals(1, schedule.size(), "the one-shot entry is gone");
        }
    }

    @Test
    void aJumpOfSeveralPeriodsFiresARecurringEntryOnceAndItIsDueAPeriodAfterThat() {
        try (Time.SimulatedTime time = new Time.SimulatedTime()) {
            StormClockSchedule schedule = new StormClockSchedule();
            List<Long> fired = new ArrayList<>();
            schedule.add(1_000, 1_000, () -> fired.add(Time.currentTimeMillis()));
            Time.advanceTime(10_500);
            schedule.fireDue();
            assertEquals(List.of(10_500L), fired);
            Time.advanceTime(999);
            schedule.fireDue();
            assertEquals(List.of(10_500L), fired);
            Time.advanceTime(1);
            schedule.fireDue();
            assertEquals(List.of(10_500L, 11_500L), fired);
        }
    }

    @Test
    void cancelledEntriesNeverFireAndNothingFiresOnceSimulationEnds() {
        StormClockSchedule schedule;
        List<String> fired = new ArrayList<>();
        try (Time.SimulatedTime time = new Time.SimulatedTime()) {
            schedule = new StormClockSchedule();
            ScheduledFuture<?> cancelled = schedule.add(1_000, 1_000, () -> fired.add("cancelled"));
            schedule.add(1_000, 1_000, () -> fired.add("kept"));
            cancelled.cancel(false);
            Time.advanceTime(1_000);
            schedule.fireDue();
            assertEquals(List.of("kept"), fired);
        }
        // the wall clock is far past every entry now: nothing fires
        schedule.fireDue();
        assertEquals(List.of("kept"), fired);
    }
}
