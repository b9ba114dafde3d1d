package io.microburst.server.logviewer;

import io.microburst.server.web.QueryParameters;
import org.eclipse.jetty.util.Fields;

/**
 * The logviewer's query parameters, each refused with one line naming it when it is not what Storm's logviewer takes:
 * an {@link IllegalArgumentException} the routes answer with 400. Stateless; the request's thread.
 */
final class Params {
    private Params() {
    }

    /** The parameter as a whole number from {@code min} to {@code max}, or null when not given. */
    static Long number(Fields query, String name, long min, long max) {
        String value = query.getValue(name);
        if (value == null) {
            return null;
        }
        try {
            long n = Long.parseLong(value);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter " + name + " must be a whole number from " + min + " to " + max
                + ": " + QueryParameters.shown(value));
        }
    }

    /** The parameter as a whole number, {@code otherwise} when not given. */
    static long number(Fields query, String name, long min, long max, long otherwise) {
        Long n = number(query, name, min, max);
        return n == null ? otherwise : n;
    }

    /** A flag as an HTML check box or a script sends it ({@code on}, {@code true}, {@code yes}...), false when absent. */
    static boolean flag(Fields query, String name) {
        String value = query.getValue(name);
        if (value == null || value.isEmpty()) {
            return false;
        }
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "on", "yes", "y", "t" -> true;
            case "false", "off", "no", "n", "f" -> false;
            default -> throw new IllegalArgumentException("parameter " + name + " must be true or false: "
                + QueryParameters.shown(value));
        };
    }

    /** A required parameter's value. */
    static String required(Fields query, String name, String what) {
        String value = query.getValue(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("the request needs the parameter " + name + "=" + what);
        }
        return value;
    }
}
