package io.microburst.server.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.thrift.TException;

/**
 * Storm's {@code topology/ID/profiling/ACTION/HOST:PORT[/TIMEOUT]} operations on the topology's one worker, through
 * {@link Profiler}: {@code start} (minutes), {@code stop}, {@code dumpprofile}, {@code dumpjstack}, {@code dumpheap}.
 * {@code restartworker} answers {@code "status": "unsupported"} with a message, as Storm's UI answers
 * {@code "disabled"} where profiling is off: the worker is the server's own process. Answers Storm's
 * {@code {"status": "ok", "id": HOST:PORT, ...}}. Stateless apart from the {@link Profiler}; thread-safe.
 */
final class ProfilingApi {
    private final Nimbus.Iface nimbus;
    private final Profiler profiler;

    ProfilingApi(Nimbus.Iface nimbus, Profiler profiler) {
        this.nimbus = nimbus;
        this.profiler = profiler;
    }

    Map<String, Object> act(String id, String action, String hostPort, String timeout) throws TException, IOException {
        TopologyInfo info = nimbus.getTopologyInfo(id);
        String host = TopologyHost.of(info);
        int port = TopologyHost.port(info);
        if (!hostPort.equals(host + ":" + port)) {
            throw new NotAliveException("topology '" + id + "' has no worker '" + hostPort + "': its one worker is "
                + host + ":" + port);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("status", "ok");
        json.put("id", hostPort);
        String trusted = info.get_id();
        switch (action) {
            case "start" -> {
                if (timeout == null || !timeout.matches("\\d{1,6}") || Integer.parseInt(timeout) == 0) {
                    throw new IllegalArgumentException("profiling/start needs a timeout in whole minutes, 1 or more: "
                        + "/api/v1/topology/" + id + "/profiling/start/" + hostPort + "/MINUTES");
                }
                profiler.start(trusted, host, port, Integer.parseInt(timeout));
                json.put("timeout", timeout);
                json.put("dumplink", Profiler.dumpLink(host, StormJson.logviewer(nimbus), trusted, port));
            }
            case "stop" -> profiler.stop(trusted);
            case "dumpprofile" -> json.put("file", name(profiler.dump(trusted, port)));
            case "dumpjstack" -> json.put("file", name(profiler.threadDump(trusted, info.get_name(), port)));
            case "dumpheap" -> json.put("file", name(profiler.heapDump(trusted, port)));
            case "restartworker" -> {
                json.put("status", "unsupported");
                json.put("message", "the worker of '" + id + "' is the server's own process and cannot restart alone; "
                    + "rebalance the topology, or kill and submit it");
            }
            default -> throw new NotAliveException("no profiling action '" + action + "' (use start, stop, dumpprofile, "
                + "dumpjstack, dumpheap)");
        }
        return json;
    }

    private static String name(java.nio.file.Path file) {
        return file.getFileName().toString();
    }
}
