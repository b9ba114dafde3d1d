package io.microburst.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The guard closes once, and refuses every check after. */
class OpenGuardTest {
    @Test
    void closesOnceThenRefuses() {
        OpenGuard open = new OpenGuard("TestCluster");
        open.check();
        assertTrue(open.close(), "the first close");
        assertFalse(open.close(), "a second close");
        IllegalStateException refused = assertThrows(IllegalStateException.class, open::check);
        assertEquals("This TestCluster is closed", refused.getMessage());
    }
}
