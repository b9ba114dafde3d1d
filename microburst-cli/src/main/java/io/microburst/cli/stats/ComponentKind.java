package io.microburst.cli.stats;

/** Whether a component is a spout or a bolt; spouts are listed first. */
public enum ComponentKind {
    SPOUT, BOLT
}
