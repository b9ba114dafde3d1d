package io.microburst.cli.display;

import io.microburst.cli.stats.ComponentKind;
import io.microburst.cli.stats.ComponentRate;
import java.util.StringJoiner;

/**
 * One line per update, no escape sequences: for pipes, files and dumb terminals. Example:
 * {@code [   3s] wordcount  sentences out 1.20M/s | split in 1.20M/s out 9.61M/s | count in 9.61M/s}. Stateless.
 */
public final class PlainLineRenderer implements FrameRenderer {
    @Override
    public String render(LiveFrame frame) {
        StringJoiner components = new StringJoiner(" | ");
        for (ComponentRate rate : frame.components()) {
            StringBuilder part = new StringBuilder(rate.componentId());
            if (rate.kind() == ComponentKind.BOLT) {
                part.append(" in ").append(Numbers.human(rate.executedPerSecond())).append("/s");
            }
            if (rate.kind() == ComponentKind.SPOUT || rate.emitted() > 0) {
                part.append(" out ").append(Numbers.human(rate.emittedPerSecond())).append("/s");
            }
            components.add(part);
        }
        String body = frame.components().isEmpty() ? "waiting for stats" : components.toString();
        return String.format("[%4ds] %s  %s%n", frame.elapsed().toSeconds(), frame.topologyName(), body);
    }
}
