package io.microburst.cluster.upgrade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An upgrade's line, as a topology summary shows it, reads back as the upgrade it tells of (the REST answer's fields). */
class UpgradeHistoryTest {
    @Test
    void aDescribedUpgradeParsesBack() {
        UpgradeHistory.Upgrade quiet = new UpgradeHistory.Upgrade(2, "counts-1-17", "counts-4-19", 1_795_800_183_456L,
            77, 0);
        UpgradeHistory.Upgrade replaying = new UpgradeHistory.Upgrade(13, "a-b-9-1", "a-b-12-2", 1_795_800_183_000L,
            1500, 42);
        assertEquals(Optional.of(quiet), UpgradeHistory.Upgrade.parse(quiet.describe()));
        assertEquals(Optional.of(replaying), UpgradeHistory.Upgrade.parse(replaying.describe()));
        assertTrue(UpgradeHistory.Upgrade.parse("").isEmpty());
        assertTrue(UpgradeHistory.Upgrade.parse(null).isEmpty());
        assertTrue(UpgradeHistory.Upgrade.parse("waiting for resources").isEmpty());
    }
}
