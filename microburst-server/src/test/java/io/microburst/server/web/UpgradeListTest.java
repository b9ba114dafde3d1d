package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.microburst.cluster.upgrade.UpgradeHistory;
import java.util.List;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;

/** A topology's upgrades written as JSON (the REST field, the stored file) read back as they were; a damaged entry is named. */
class UpgradeListTest {
    @Test
    void upgradesReadBackAsWritten() {
        List<UpgradeHistory.Upgrade> upgrades = List.of(
            new UpgradeHistory.Upgrade(2, "counts-1-17", "counts-4-19", 1_795_800_183_456L, 77, 0),
            new UpgradeHistory.Upgrade(3, "counts-4-19", "counts-5-20", 1_795_800_190_001L, 1500, 42));
        String text = JSONValue.toJSONString(UpgradeList.json(upgrades));
        assertEquals(upgrades, UpgradeList.parse(JSONValue.parse(text)));
        assertEquals(List.of(), UpgradeList.parse(JSONValue.parse("[]")));
    }

    @Test
    void aDamagedEntryIsNamed() {
        String bad = "[{\"version\":2,\"fromId\":\"a-1-1\",\"toId\":\"a-2-2\",\"time\":\"2026-11-28T00:00:00Z\","
            + "\"gapMs\":1,\"failedBack\":0},{\"version\":3,\"fromId\":\"a-2-2\",\"toId\":\"a-3-3\",\"time\":\"yesterday\","
            + "\"gapMs\":1,\"failedBack\":0}]";
        assertEquals("upgrade 2: time is not an ISO-8601 instant", assertThrows(IllegalArgumentException.class,
            () -> UpgradeList.parse(JSONValue.parse(bad))).getMessage());
        assertEquals("upgrade 1: gapMs is not a number", assertThrows(IllegalArgumentException.class,
            () -> UpgradeList.parse(JSONValue.parse("[{\"version\":2,\"fromId\":\"a\",\"toId\":\"b\",\"time\":"
                + "\"2026-11-28T00:00:00Z\",\"gapMs\":\"1\",\"failedBack\":0}]"))).getMessage());
        assertEquals("the upgrades are not a JSON array", assertThrows(IllegalArgumentException.class,
            () -> UpgradeList.parse(JSONValue.parse("{}"))).getMessage());
    }
}
