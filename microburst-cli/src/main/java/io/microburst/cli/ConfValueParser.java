package io.microburst.cli;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Types a {@code --conf key=value} value the way a YAML scalar would be read, so that a value given on the command line
 * reaches the topology with the same Java type as in {@code storm.yaml}: Integer when it fits, else Long, then Double,
 * Boolean ({@code true}/{@code false} in any case), and String for anything else. Quotes force a string:
 * {@code "42"} is the String {@code 42}.
 */
public final class ConfValueParser {
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

    private ConfValueParser() {
    }

    /** Returns the typed value of {@code text}; never null. */
    public static Object parse(String text) {
        String value = text.trim();
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
