package io.microburst.server.nimbus;

import java.util.HashMap;
import java.util.Map;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;
import org.apache.storm.utils.WrappedInvalidTopologyException;

/** The JSON configuration a submission carries ({@code submitTopology}'s {@code jsonConf}). Any thread. */
public final class SubmittedConf {
    private SubmittedConf() {
    }

    /**
     * Parses the JSON configuration of a submission into a mutable map.
     *
     * @throws InvalidTopologyException if it is not a JSON object
     */
    public static Map<String, Object> parse(String jsonConf) throws InvalidTopologyException {
        Map<String, Object> conf = new HashMap<>();
        if (jsonConf != null && !jsonConf.isBlank()) {
            Object parsed;
            try {
                parsed = JSONValue.parseWithException(jsonConf);
            } catch (ParseException e) {
                throw new WrappedInvalidTopologyException("topology configuration is not valid JSON: " + e.getMessage());
            }
            if (!(parsed instanceof Map)) {
                throw new WrappedInvalidTopologyException("topology configuration must be a JSON object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> parsedMap = (Map<String, Object>) parsed;
            conf.putAll(parsedMap);
        }
        return conf;
    }
}
