package io.microburst.runtime.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Storm's rule for debug options: a component's own setting wins over the topology's, even when it is off. */
class EventSamplingTest {
    private static final EmitSampler.Sink NOWHERE = (component, task, stream, values) -> { };

    @Test
    void aComponentsOwnSettingWinsOverTheTopologys() {
        EventSampling sampling = new EventSampling();
        assertNull(sampling.of("split"));
        assertNull(sampling.samplerFor("split"), "never set: nothing sampled");

        sampling.set(null, new EventSampling.Setting(true, 20), NOWHERE);
        sampling.set("count", new EventSampling.Setting(false, 50), NOWHERE);
        assertEquals(new EventSampling.Setting(true, 20), sampling.of("split"));
        assertEquals(new EventSampling.Setting(false, 50), sampling.of("count"));
        assertNotNull(sampling.samplerFor("split"));
        assertNull(sampling.samplerFor("count"), "off for the component though on for the topology");
        assertEquals(Map.of("", new EventSampling.Setting(true, 20), "count", new EventSampling.Setting(false, 50)),
            sampling.all());

        sampling.set(null, new EventSampling.Setting(true, 0), NOWHERE);
        assertNull(sampling.samplerFor("split"), "0% samples nothing");
    }
}
