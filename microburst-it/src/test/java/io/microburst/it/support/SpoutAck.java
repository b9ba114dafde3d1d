package io.microburst.it.support;

/** A spout's ack (acked = true) or fail callback for one message id. */
public record SpoutAck(String component, int taskId, Object msgId, boolean acked) {
}
