package io.microburst.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.junit.jupiter.api.Test;

/**
 * {@link ConfViews} asks Nimbus at most once per interval per configuration, shows a change after it, embeds a
 * topology's JSON as Nimbus wrote it, and hands out maps nobody can change. A fake clock; no waiting.
 */
class ConfViewsTest {
    private final AtomicLong clock = new AtomicLong();
    private final AtomicInteger serverCalls = new AtomicInteger();
    private final AtomicInteger topologyCalls = new AtomicInteger();
    private volatile String serverJson = "{\"logviewer.port\":8000,\"ui.central.logging.url\":null}";
    private volatile String topologyJson = "{\"topology.name\":\"t\",\"topology.message.timeout.secs\":30}";

    private final Nimbus.Iface nimbus = (Nimbus.Iface) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {Nimbus.Iface.class}, (proxy, method, args) -> switch (method.getName()) {
            case "getNimbusConf" -> {
                serverCalls.incrementAndGet();
                yield serverJson;
            }
            case "getTopologyConf" -> {
                topologyCalls.incrementAndGet();
                yield topologyJson;
            }
            default -> throw new UnsupportedOperationException(method.getName());
        });
    private final ConfViews confs = new ConfViews(nimbus, 1000, clock::get);

    @Test
    void theServerConfigurationIsFetchedOncePerIntervalAndChangesShowAfterIt() throws Exception {
        assertEquals(8000, confs.logviewer().port());
        assertEquals(8000, ((Number) confs.server().get("logviewer.port")).intValue());
        clock.set(999);
        serverJson = "{\"logviewer.port\":8001}";
        assertEquals(8000, confs.logviewer().port());
        assertEquals(1, serverCalls.get());
        clock.set(1000);
        assertEquals(8001, confs.logviewer().port());
        assertEquals(2, serverCalls.get());
        assertThrows(UnsupportedOperationException.class, () -> confs.server().put("x", 1));
    }

    @Test
    void aTopologyConfigurationIsFetchedOncePerIntervalAndWrittenAsNimbusWroteIt() throws Exception {
        ConfViews.TopologyConf first = confs.topology("t-1");
        assertEquals(30, ((Number) first.map().get("topology.message.timeout.secs")).intValue());
        assertEquals("{\"conf\":" + topologyJson + "}", JSONValue.toJSONString(Map.of("conf", first.json())));
        topologyJson = "{\"topology.name\":\"t\",\"topology.message.timeout.secs\":60}";
        clock.set(500);
        assertEquals(30, ((Number) confs.topology("t-1").map().get("topology.message.timeout.secs")).intValue());
        assertEquals(1, topologyCalls.get());
        confs.topology("t-2");
        assertEquals(2, topologyCalls.get());
        clock.set(1500);
        assertEquals(60, ((Number) confs.topology("t-1").map().get("topology.message.timeout.secs")).intValue());
        assertEquals(3, topologyCalls.get());
        assertThrows(UnsupportedOperationException.class, () -> confs.topology("t-1").map().put("x", 1));
    }
}
