package io.microburst.server.web;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.JSONParser;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Reads the body of a rebalance request as Storm's UI REST API documents it,
 * {@code {"rebalanceOptions": {"numWorkers": 2, "executors": {"spout": "5", "split": 7}}, "callback": "foo"}}: counts
 * as numbers or as strings of digits, every part optional, an empty body meaning no changes. Anything else is refused
 * with an {@link IllegalArgumentException} naming what was wrong. Stateless.
 */
final class RebalanceBody {
    private static final String EXAMPLE = "{\"rebalanceOptions\": {\"numWorkers\": 1, \"executors\": {\"COMPONENT\": 4}}}";
    private static final Set<String> OPTIONS = Set.of("numWorkers", "executors");

    private RebalanceBody() {
    }

    /** The options {@code body} asks for, with {@code waitSecs}. */
    static RebalanceOptions parse(String topologyId, int waitSecs, String body) {
        RebalanceOptions options = new RebalanceOptions();
        options.set_wait_secs(waitSecs);
        if (body == null || body.isBlank()) {
            return options;
        }
        Object parsed;
        try {
            parsed = new JSONParser(JSONParser.MODE_RFC4627).parse(body);
        } catch (ParseException e) {
            throw refused(topologyId, "is not JSON (" + e.getMessage() + ")");
        }
        if (!(parsed instanceof Map<?, ?> request)) {
            throw refused(topologyId, "must be a JSON object, got " + JSONValue.toJSONString(parsed));
        }
        Object rebalance = request.get("rebalanceOptions");
        if (rebalance == null) {
            return options;
        }
        if (!(rebalance instanceof Map<?, ?> given)) {
            throw refused(topologyId, "has rebalanceOptions that is not an object: " + JSONValue.toJSONString(rebalance));
        }
        for (Object key : given.keySet()) {
            if (!OPTIONS.contains(key)) {
                throw refused(topologyId, "has an unknown rebalance option '" + key + "' (known: numWorkers, executors)");
            }
        }
        if (given.get("numWorkers") != null) {
            options.set_num_workers(count(topologyId, "numWorkers", given.get("numWorkers")));
        }
        Object executors = given.get("executors");
        if (executors != null) {
            if (!(executors instanceof Map<?, ?> byComponent)) {
                throw refused(topologyId, "has executors that is not an object of component to count: "
                    + JSONValue.toJSONString(executors));
            }
            Map<String, Integer> counts = new HashMap<>();
            byComponent.forEach((component, n) -> counts.put(String.valueOf(component),
                count(topologyId, "executors of '" + component + "'", n)));
            options.set_num_executors(counts);
        }
        return options;
    }

    /** A count of 1 or more, given as a whole number or a string of digits, as Storm's UI accepts. */
    private static int count(String topologyId, String what, Object value) {
        long n;
        if (value instanceof Number number && number.doubleValue() == number.longValue()) {
            n = number.longValue();
        } else if (value instanceof String text && text.trim().matches("\\d{1,9}")) {
            n = Long.parseLong(text.trim());
        } else {
            throw refused(topologyId, "has " + what + " = " + JSONValue.toJSONString(value) + ", not a whole number");
        }
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw refused(topologyId, "has " + what + " = " + n + ", must be 1 or more");
        }
        return (int) n;
    }

    private static IllegalArgumentException refused(String topologyId, String problem) {
        return new IllegalArgumentException("the rebalance request for topology '" + topologyId + "' " + problem
            + "; send an empty body or " + EXAMPLE);
    }
}
