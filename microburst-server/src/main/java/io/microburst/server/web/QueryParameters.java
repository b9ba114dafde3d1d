package io.microburst.server.web;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * A request's query parameters, with what is wrong in them refused as an {@link IllegalArgumentException} (answered
 * 400) naming the query or the parameter: a query that is not valid percent-encoded UTF-8, a flag that is not
 * {@code true} or {@code false}. Stateless; the request's thread.
 */
public final class QueryParameters {
    private static final int SHOWN = 200;

    private QueryParameters() {
    }

    /** The parameters of {@code request}'s query. */
    public static Fields of(Request request) {
        try {
            return Request.extractQueryParameters(request);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the query string '" + shown(request.getHttpURI().getQuery())
                + "' is not valid: write NAME=VALUE pairs joined by '&', percent-encoded UTF-8 (such as %2F; '%' must be "
                + "followed by two hex digits)");
        }
    }

    /** Checks that {@code name}, when given, is {@code true} or {@code false}, as Storm's UI takes its {@code sys}. */
    public static void flag(Fields query, String name) {
        String value = query.getValue(name);
        if (value != null && !value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("parameter " + name + " must be true or false, got '" + shown(value) + "'");
        }
    }

    /** Text from a request, for a message: control characters dropped, at most {@value #SHOWN} characters. */
    public static String shown(String text) {
        if (text == null) {
            return "";
        }
        String clean = text.replaceAll("\\p{Cntrl}", "?");
        return clean.length() > SHOWN ? clean.substring(0, SHOWN) + "..." : clean;
    }
}
