package io.microburst.cli.local;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * The {@code storm.options} system property, through which Storm's script hands {@code storm -c} overrides to the JVM
 * it starts: storm-client's {@code Utils.readStormConfig()} and {@code StormSubmitter} read them from there.
 */
public final class StormOptions {
    public static final String PROPERTY = "storm.options";

    private StormOptions() {
    }

    /** {@code key=JSON} pairs, URL-encoded and comma-separated, as Storm's script sets them. */
    public static String encode(Map<String, Object> conf) {
        List<String> pairs = new ArrayList<>();
        conf.forEach((key, value) -> pairs.add(URLEncoder.encode(key + "=" + JSONValue.toJSONString(value),
            StandardCharsets.UTF_8)));
        return String.join(",", pairs);
    }
}
