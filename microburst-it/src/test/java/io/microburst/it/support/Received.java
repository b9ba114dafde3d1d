package io.microburst.it.support;

import java.util.List;

/** One tuple as a receiving task saw it. */
public record Received(String component, int taskId, String sourceComponent, int sourceTask, String stream, List<Object> values) {
    public Received {
        values = List.copyOf(values);
    }

    /** The part of a tuple that must match across runtimes: where it came from and what it held, not which task ids were involved. */
    public String contentKey() {
        return sourceComponent + ":" + stream + ":" + values;
    }
}
