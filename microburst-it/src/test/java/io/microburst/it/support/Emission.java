package io.microburst.it.support;

import java.io.Serializable;
import java.util.List;

/** One tuple a {@link FixedTuplesSpout} emits: its stream and its values. */
public record Emission(String stream, List<Object> values) implements Serializable {
    public Emission {
        values = List.copyOf(values);
    }

    public static Emission of(String stream, Object... values) {
        return new Emission(stream, List.of(values));
    }
}
