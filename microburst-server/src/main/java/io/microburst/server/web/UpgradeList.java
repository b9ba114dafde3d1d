package io.microburst.server.web;

import io.microburst.cluster.upgrade.UpgradeHistory;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topology's upgrades as JSON, one object per upgrade, oldest first: {@code version}, {@code fromId}, {@code toId},
 * {@code time} (ISO-8601, UTC), {@code gapMs} (the output gap) and {@code failedBack} (trees still pending when the
 * wait ran out, replayed). The same form is the {@code upgrades} field of the REST API's {@code topology/ID} and the
 * file the server keeps beside a stored topology, so that the list survives a restart.
 *
 * <p>Stateless; any thread.
 */
public final class UpgradeList {
    private UpgradeList() {
    }

    /** The JSON form of {@code upgrades}, in their order. */
    public static List<Object> json(List<UpgradeHistory.Upgrade> upgrades) {
        List<Object> json = new ArrayList<>();
        for (UpgradeHistory.Upgrade u : upgrades) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("version", u.version());
            row.put("fromId", u.fromId());
            row.put("toId", u.toId());
            row.put("time", Instant.ofEpochMilli(u.atMillis()).toString());
            row.put("gapMs", u.gapMillis());
            row.put("failedBack", u.failedBack());
            json.add(row);
        }
        return json;
    }

    /**
     * The upgrades a {@link #json} form tells of.
     *
     * @throws IllegalArgumentException naming the entry and field that are not as {@link #json} writes them
     */
    public static List<UpgradeHistory.Upgrade> parse(Object json) {
        if (!(json instanceof List<?> list)) {
            throw new IllegalArgumentException("the upgrades are not a JSON array");
        }
        List<UpgradeHistory.Upgrade> upgrades = new ArrayList<>();
        for (Object entry : list) {
            String where = "upgrade " + (upgrades.size() + 1);
            if (!(entry instanceof Map<?, ?> row)) {
                throw new IllegalArgumentException(where + " is not a JSON object");
            }
            try {
                upgrades.add(new UpgradeHistory.Upgrade(number(row, "version", where).intValue(),
                    text(row, "fromId", where), text(row, "toId", where),
                    Instant.parse(text(row, "time", where)).toEpochMilli(), number(row, "gapMs", where).longValue(),
                    number(row, "failedBack", where).longValue()));
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(where + ": time is not an ISO-8601 instant");
            }
        }
        return upgrades;
    }

    private static Number number(Map<?, ?> row, String field, String where) {
        if (!(row.get(field) instanceof Number n)) {
            throw new IllegalArgumentException(where + ": " + field + " is not a number");
        }
        return n;
    }

    private static String text(Map<?, ?> row, String field, String where) {
        if (!(row.get(field) instanceof String s)) {
            throw new IllegalArgumentException(where + ": " + field + " is not a string");
        }
        return s;
    }
}
