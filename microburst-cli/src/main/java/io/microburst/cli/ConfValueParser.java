package io.microburst.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Types a {@code --conf key=value} value the way a YAML scalar would be read, so that a value given on the command line
 * reaches the topology with the same Java type as in {@code storm.yaml}: Integer when it fits, else Long, then Double,
 * Boolean ({@code true}/{@code false} in any case), and String for anything else. Quotes force a string:
 * {@code "42"} is the String {@code 42}. A value that starts with {@code [} or <code>{</code> is JSON, as with Storm's
 * {@code storm -c}: a list or a map (for example {@code topology.metrics.reporters}), with JSON's types inside.
 */
public final class ConfValueParser {
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    private ConfValueParser() {
    }

    /**
     * Returns the typed value of {@code text}; never null.
     *
     * @throws IllegalArgumentException if the value starts as a JSON list or map but is not one
     */
    public static Object parse(String text) {
        String value = text.trim();
        if (value.startsWith("[") || value.startsWith("{")) {
            return parseJson(value);
        }
        if (isQuoted(value, '"') || isQuoted(value, '\'')) {
            return value.substring(1, value.length() - 1);
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false")) {
            return Boolean.valueOf(lower);
        }
        if (INTEGER.matcher(value).matches()) {
            return parseInteger(value);
        }
        if (DECIMAL.matcher(value).matches()) {
            return Double.valueOf(value);
        }
        return value;
    }

    private static Object parseJson(String value) {
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(value);
        } catch (ParseException e) {
            throw new IllegalArgumentException("not valid JSON: " + value + " (" + e.getMessage() + ")", e);
        }
        if (!(parsed instanceof List) && !(parsed instanceof Map)) {
            throw new IllegalArgumentException("not a JSON list or map: " + value);
        }
        return parsed;
    }

    private static Object parseInteger(String value) {
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= Integer.MIN_VALUE && parsed <= Integer.MAX_VALUE) {
                return (int) parsed;
            }
            return parsed;
        } catch (NumberFormatException tooLongForLong) {
            // YAML would give a big integer; Storm's config readers only handle int, long and double, so keep the text.
            return value;
        }
    }

    private static boolean isQuoted(String value, char quote) {
        return value.length() >= 2 && value.charAt(0) == quote && value.charAt(value.length() - 1) == quote;
    }
}
