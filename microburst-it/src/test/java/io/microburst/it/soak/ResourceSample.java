package io.microburst.it.soak;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the server holds at the end of one cycle (just before its kill): threads, heap in use after a full collection
 * (the Prometheus JVM gauge {@code jvm_memory_used_bytes{area="heap"}}, read from {@code /metrics} after
 * {@code jcmd GC.run}), open descriptors, bytes under its data folder (worker logs apart) and under its temporary
 * folder, and subprocesses.
 */
record ResourceSample(int cycle, int threads, long heapMb, int descriptors, long diskKb, long logsKb, long tmpKb,
                      int children, int topologies) {
    private static final Pattern HEAP = Pattern.compile("^jvm_memory_used_bytes\\{[^}]*area=\"heap\"[^}]*} (\\S+)",
        Pattern.MULTILINE);

    static ResourceSample take(int cycle, SoakServer server, SoakClient client) throws Exception {
        server.collectGarbage();
        var response = client.get("/metrics");
        String metrics = response.body();
        Matcher m = HEAP.matcher(metrics);
        if (!m.find()) {
            throw new AssertionError("no heap gauge in /metrics: " + response.statusCode() + " "
                + metrics.substring(0, Math.min(300, metrics.length())) + " " + metrics.lines()
                .filter(l -> l.contains("jvm_memory")).limit(10).toList());
        }
        long heapMb = (long) (Double.parseDouble(m.group(1)) / (1 << 20));
        return new ResourceSample(cycle, server.threads(), heapMb, server.openDescriptors(),
            server.diskBytes(false) / 1024, server.diskBytes(true) / 1024, server.tmpBytes() / 1024,
            server.children().size(),
            client.topologies().size());
    }

    @Override
    public String toString() {
        return "cycle " + cycle + ": topologies " + topologies + ", threads " + threads + ", heap after GC " + heapMb
            + " MB, descriptors " + descriptors + ", data folder " + diskKb + " KB (+ worker logs " + logsKb
            + " KB), temporary folder " + tmpKb + " KB, subprocesses " + children;
    }
}
