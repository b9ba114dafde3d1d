package io.microburst.cli.display;

import io.microburst.cli.stats.ComponentRate;
import java.time.Duration;
import java.util.List;

/** What one live update shows: the topology, how long it has run, and each component's rates. Immutable. */
public record LiveFrame(String topologyName, Duration elapsed, List<ComponentRate> components) {
    public LiveFrame {
        components = List.copyOf(components);
    }
}
