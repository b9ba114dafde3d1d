package io.microburst.bench.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The single line a child JVM prints to report its run: a fixed marker, a space, then the {@link RunResult} as JSON. The
 * marker lets the parent find it among whatever else the runtime under test logs. Stateless.
 */
public final class ResultLine {
    /** Starts the result line. */
    public static final String MARKER = "@@microburst-bench-result@@";

    private ResultLine() {
    }

    /** The line for {@code result} (no line break). */
    public static String format(RunResult result) {
        try {
            return MARKER + " " + Json.MAPPER.writeValueAsString(result);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The result in {@code line}, or empty when the line is not a result line. Throws if it is one but malformed. */
    public static Optional<RunResult> parse(String line) {
        int at = line.indexOf(MARKER);
        if (at < 0) {
            return Optional.empty();
        }
        String json = line.substring(at + MARKER.length()).trim();
        try {
            return Optional.of(Json.MAPPER.readValue(json, RunResult.class));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("malformed result line: " + line, e);
        }
    }

    /** The last result line among {@code lines} (a child prints one; the last wins if a runtime echoed one). */
    public static Optional<RunResult> find(List<String> lines) {
        Optional<RunResult> found = Optional.empty();
        for (String line : lines) {
            Optional<RunResult> parsed = parse(line);
            if (parsed.isPresent()) {
                found = parsed;
            }
        }
        return found;
    }
}
