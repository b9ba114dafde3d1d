package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeSet;
import org.apache.storm.generated.ExecutorStats;
import org.apache.storm.generated.ExecutorSummary;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.TopologyInfo;

/**
 * {@code microburst monitor}: what {@code storm monitor} prints, read the same way from {@code getTopologyInfo}'s
 * all-time counters: a tab-separated header naming the columns (topology, component, parallelism, stream, time-diff ms,
 * the counter watched, throughput in tuples per millisecond, i.e. Kt/s), then one line per interval with the change
 * since the previous line, the first at once (a time-diff of 0), the next ones on a fixed schedule from the start.
 * Without {@code -m} it lists the components, as Storm's does. A component or stream that is not there is a one-line
 * error naming it and what there is.
 *
 * <p>Threading: the calling thread.
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
        NimbusCall.run("monitor", AdminRun.clientConf(command.conf()), command.topology(), this::watch);
        return 0;
    }

    private void watch(Nimbus.Iface nimbus) throws Exception {
        if (command.component().isEmpty()) {
            out.println("Available components for " + command.topology() + " :");
            out.println("------------------");
            components(info(nimbus)).forEach(out::println);
            out.println("------------------");
            out.println("Please use -m to specify one component");
            return;
        }
        out.println("topology\tcomponent\tparallelism\tstream\ttime-diff ms\t" + command.watch()
            + "\tthroughput (Kt/s)");
        long intervalMs = command.intervalSecs() * 1000L;
        long start = System.currentTimeMillis();
        long lastTime = start;
        long lastCount = 0;
        int printed = 0;
        long now = start;
        while (true) {
            Count count = count(info(nimbus));
            long timeDiff = now - lastTime;
            long delta = count.total - lastCount;
            double throughput = delta == 0 || timeDiff == 0 ? 0.0 : (double) delta / (double) timeDiff;
            out.println(command.topology() + "\t" + command.component().get() + "\t" + count.parallelism + "\t"
                + command.stream() + "\t" + timeDiff + "\t" + delta + "\t" + throughput);
            out.flush();
            lastTime = now;
            lastCount = count.total;
            if (command.samples().isPresent() && ++printed >= command.samples().getAsInt()) {
                return;
            }
            now = nextPoll(start, intervalMs);
        }
    }

    /** Sleeps until the next multiple of the interval after {@code start}; returns the time it woke. */
    private static long nextPoll(long start, long intervalMs) throws InterruptedException {
        long now = System.currentTimeMillis();
        long wake = start + intervalMs * ((now - start) / intervalMs + 1);
        Thread.sleep(Math.max(0, wake - now));
        return System.currentTimeMillis();
    }

    private TopologyInfo info(Nimbus.Iface nimbus) throws Exception {
        GetInfoOptions options = new GetInfoOptions();
        options.set_num_err_choice(NumErrorsChoice.NONE);
        return nimbus.getTopologyInfoByNameWithOpts(command.topology(), options);
    }

    private record Count(long total, int parallelism) {
    }

    private Count count(TopologyInfo info) throws CommandFailedException {
        String component = command.component().get();
        long total = 0;
        int parallelism = 0;
        boolean streamFound = false;
        for (ExecutorSummary executor : info.get_executors()) {
            if (!component.equals(executor.get_component_id())) {
                continue;
            }
            parallelism++;
            ExecutorStats stats = executor.get_stats();
            Map<String, Map<String, Long>> counted = stats == null ? null
                : command.watch().equals("transferred") ? stats.get_transferred() : stats.get_emitted();
            Map<String, Long> byStream = counted == null ? null : counted.get(ALL_TIME);
            Long onStream = byStream == null ? null : byStream.get(command.stream());
            if (onStream != null) {
                streamFound = true;
                total += onStream;
            }
        }
        if (parallelism == 0) {
            throw new CommandFailedException("monitor: topology '" + command.topology() + "' has no component '"
                + component + "'; its components: " + String.join(", ", components(info)) + " (use -m with one)");
        }
        if (!streamFound) {
            throw new CommandFailedException("monitor: component '" + component + "' of topology '"
                + command.topology() + "' has no " + command.watch() + " count on stream '" + command.stream()
                + "' (yet); choose its stream with -s");
        }
        return new Count(total, parallelism);
    }

    private static TreeSet<String> components(TopologyInfo info) {
        TreeSet<String> components = new TreeSet<>();
        info.get_executors().forEach(e -> components.add(e.get_component_id()));
        return components;
    }
}
