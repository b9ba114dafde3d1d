package io.microburst.it.operatorload;

import java.util.Arrays;
import java.util.Map;

/**
 * Each operator request's cost on its own, while the full-speed topologies are still inactive (so the server is
 * nearly idle and its CPU is the request's): the median and longest answer time, the server's CPU per request beyond
 * what it used idle just before, and the answer's size. Used by the test's thread only.
 */
final class EndpointCosts {
    private static final int TIMES = 10;

    private EndpointCosts() {
    }

    static String measure(LoadServer server, OperatorCalls calls, String id, String component) throws Exception {
        StringBuilder out = new StringBuilder(String.format("LOAD %-42s %9s %9s %12s %10s%n", "request (alone, "
            + TIMES + " times)", "median ms", "max ms", "CPU ms/req", "bytes"));
        Map<String, OperatorCalls.Call> sweep = calls.sweep(id, component);
        sweep.put("index refresh (its topology list)", calls::indexRefresh);
        for (Map.Entry<String, OperatorCalls.Call> call : sweep.entrySet()) {
            call.getValue().run(); // warm-up
            call.getValue().run();
            double idle = idleCpuPerMilli(server);
            long[] nanos = new long[TIMES];
            long bytes = 0;
            long cpu = server.cpuMillis();
            long start = System.nanoTime();
            for (int i = 0; i < TIMES; i++) {
                long t = System.nanoTime();
                bytes = call.getValue().run();
                nanos[i] = System.nanoTime() - t;
            }
            double elapsedMs = (System.nanoTime() - start) / 1e6;
            double cpuPerRequest = Math.max(0, server.cpuMillis() - cpu - idle * elapsedMs) / TIMES;
            Arrays.sort(nanos);
            out.append(String.format("LOAD %-42s %9.1f %9.1f %12.1f %10d%n", call.getKey(), nanos[TIMES / 2] / 1e6,
                nanos[TIMES - 1] / 1e6, cpuPerRequest, bytes));
        }
        return out.toString();
    }

    /** The server's CPU milliseconds per millisecond over half a second with no request. */
    private static double idleCpuPerMilli(LoadServer server) throws Exception {
        long cpu = server.cpuMillis();
        long start = System.nanoTime();
        Thread.sleep(500); // a window with no request
        return (server.cpuMillis() - cpu) / ((System.nanoTime() - start) / 1e6);
    }
}
