package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * While an executor's calls are slow it hands each emit over at once, but only while the consumer's queue of batches is
 * under a quarter full: past that, one-tuple batches would use up the queue's slots with a few tuples each.
 */
class SinglesFitTest {
    @Test
    void anIdleOrLightlyQueuedConsumerTakesEachEmitAtOnce() {
        assertTrue(Outbox.singlesFit(0, 64));
        assertTrue(Outbox.singlesFit(15, 64));
    }

    @Test
    void aConsumerWithAQuarterOfItsQueueWaitingGetsTheOpenBatchLater() {
        assertFalse(Outbox.singlesFit(16, 64));
        assertFalse(Outbox.singlesFit(63, 64));
        assertFalse(Outbox.singlesFit(64, 64));
    }

    @Test
    void theShareScalesWithTheQueue() {
        assertTrue(Outbox.singlesFit(255, 1024));
        assertFalse(Outbox.singlesFit(256, 1024));
        // the smallest queue (2 batches) never takes a part batch at an emit: it would be full at once
        assertFalse(Outbox.singlesFit(0, 2));
    }
}
