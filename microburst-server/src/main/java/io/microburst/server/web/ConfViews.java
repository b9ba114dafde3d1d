package io.microburst.server.web;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.shade.net.minidev.json.JSONAware;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;

/**
 * The configurations REST answers show, fetched and parsed at most once per interval (a second) instead of per
 * request: the server's ({@code getNimbusConf}, whose logviewer port is filled in once the logviewer listens) and
 * each topology's ({@code getTopologyConf}, which a rebalance or an upgrade stores anew). A change shows in the next
 * interval's answers. A topology's configuration is kept with the JSON Nimbus wrote, so that an answer embeds it
 * as it is instead of writing the parsed map again; entries of topologies not asked for in
 * {@value #FORGET_INTERVALS} intervals are dropped. The maps handed out are read-only.
 *
 * <p>Threading: any request thread; the request that finds an entry stale fetches it again (two at once may both
 * fetch; either answer is current).
 */
final class ConfViews {
    /** How long a fetched configuration is handed out. */
    static final long INTERVAL_MILLIS = 1000;
    private static final int FORGET_INTERVALS = 10;

    /** A topology's configuration: parsed, and the JSON it was parsed from, which writes itself as it is. */
    record TopologyConf(Map<String, Object> map, JSONAware json) {
    }

    private record Stamped<T>(T value, long at) {
    }

    private final Nimbus.Iface nimbus;
    private final LongSupplier nanoClock;
    private final long intervalNanos;
    private volatile Stamped<Map<String, Object>> server;
    private final Map<String, Stamped<TopologyConf>> topologies = new ConcurrentHashMap<>();

    ConfViews(Nimbus.Iface nimbus) {
        this(nimbus, TimeUnit.MILLISECONDS.toNanos(INTERVAL_MILLIS), System::nanoTime);
    }

    /** @param nanoClock the time, as {@link System#nanoTime} */
    ConfViews(Nimbus.Iface nimbus, long intervalNanos, LongSupplier nanoClock) {
        this.nimbus = nimbus;
        this.intervalNanos = intervalNanos;
        this.nanoClock = nanoClock;
    }

    /** The server's configuration, as {@code getNimbusConf} answered it within the interval. */
    Map<String, Object> server() throws TException {
        long now = nanoClock.getAsLong();
        Stamped<Map<String, Object>> s = server;
        if (s == null || now - s.at() >= intervalNanos) {
            s = new Stamped<>(parse(nimbus.getNimbusConf()), now);
            server = s;
        }
        return s.value();
    }

    /** Where the links find the logviewer, from {@link #server()}. */
    LogviewerAddress logviewer() throws TException {
        return LogviewerAddress.of(server());
    }

    /** A topology's configuration, as {@code getTopologyConf} answered it within the interval. */
    TopologyConf topology(String id) throws TException {
        long now = nanoClock.getAsLong();
        Stamped<TopologyConf> s = topologies.get(id);
        if (s == null || now - s.at() >= intervalNanos) {
            String json = nimbus.getTopologyConf(id);
            s = new Stamped<>(new TopologyConf(parse(json), () -> json), now);
            topologies.put(id, s);
            topologies.values().removeIf(old -> now - old.at() >= FORGET_INTERVALS * intervalNanos);
        }
        return s.value();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(String json) {
        Object parsed = JSONValue.parse(json);
        return parsed instanceof Map ? Collections.unmodifiableMap((Map<String, Object>) parsed) : Map.of();
    }
}
