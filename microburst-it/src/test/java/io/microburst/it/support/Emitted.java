package io.microburst.it.support;

import java.util.List;

/** One tuple a spout task emitted (recorded just before the emit call). */
public record Emitted(String component, int taskId, String stream, List<Object> values) {
    public Emitted {
        values = List.copyOf(values);
    }
}
