package io.microburst.cli.remote;

import io.microburst.cli.Command;
import java.io.PrintStream;
import java.util.Map;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.utils.NimbusClient;

/**
 * {@code microburst monitor}: every interval, the tuples a topology (or one component) emitted on a stream since the
 * previous line, read from {@code getTopologyInfo}'s all-time counters, as {@code storm monitor} reports them.
 */
public final class MonitorRun {
    private static final String ALL_TIME = ":all-time";

    private final Command.Monitor command;
    private final PrintStream out;

    public MonitorRun(Command.Monitor command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    public int run() throws Exception {
        NimbusClient.withConfiguredClient(this::watch, AdminRun.clientConf(command.conf()));
        return 0;
    }

    private void watch(Nimbus.Iface nimbus) throws Exception {
        GetInfoOptions options = new GetInfoOptions();
        options.set_num_err_choice(NumErrorsChoice.NONE);
        long before = emitted(nimbus.getTopologyInfoByNameWithOpts(command.topology(), options));
        long beforeNanos = System.nanoTime();
        out.printf("%-24s %-16s %-12s %12s %12s%n", "TOPOLOGY", "COMPONENT", "STREAM", "EMITTED", "PER_SECOND");
        int printed = 0;
        while (command.samples().isEmpty() || printed < command.samples().getAsInt()) {
            Thread.sleep(command.intervalSecs() * 1000L);
            long now = emitted(nimbus.getTopologyInfoByNameWithOpts(command.topology(), options));
            long nowNanos = System.nanoTime();
            double seconds = (nowNanos - beforeNanos) / 1e9;
            out.printf("%-24s %-16s %-12s %12d %12.1f%n", command.topology(), command.component().orElse("(all)"),
                command.stream(), now - before, (now - before) / seconds);
            out.flush();
            before = now;
            beforeNanos = nowNanos;
            printed++;
        }
    }

    private long emitted(TopologyInfo info) {
        long total = 0;
        boolean found = command.component().isEmpty();
        for (ExecutorSummary executor : info.get_executors()) {
            if (command.component().isPresent() && !command.component().get().equals(executor.get_component_id())) {
                continue;
            }
            found = true;
            ExecutorStats stats = executor.get_stats();
            Map<String, Long> byStream = stats == null || stats.get_emitted() == null ? null
                : stats.get_emitted().get(ALL_TIME);
            if (byStream != null) {
                total += byStream.getOrDefault(command.stream(), 0L);
            }
        }
        if (!found) {
            throw new IllegalArgumentException("topology " + command.topology() + " has no component '"
                + command.component().get() + "'");
        }
        return total;
    }
}
