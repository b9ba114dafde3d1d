package io.microburst.cli.remote;

import io.microburst.cli.Command;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.Utils;

/**
 * {@code microburst list|kill|activate|deactivate|rebalance}: one call to the Nimbus that {@code nimbus.seeds} and
 * {@code nimbus.thrift.port} name (Storm's configuration with the {@code -c} overrides), through Storm's
 * {@code NimbusClient}, so it works against a {@code microburst server} and a Storm cluster alike.
 */
public final class AdminRun {
    private final Command.Admin command;
    private final PrintStream out;

    public AdminRun(Command.Admin command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    /** Storm's configuration (defaults.yaml, storm.yaml, storm.options) with the command line's overrides. */
    static Map<String, Object> clientConf(Map<String, Object> overrides) {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.putAll(overrides);
        return conf;
    }

    public int run() throws Exception {
        NimbusClient.withConfiguredClient(this::call, clientConf(command.conf()));
        return 0;
    }

    private void call(Nimbus.Iface nimbus) throws Exception {
        String name = command.topology();
        switch (command.verb()) {
            case LIST -> list(nimbus.getTopologySummaries());
            case KILL -> {
                KillOptions options = new KillOptions();
                command.waitSecs().ifPresent(options::set_wait_secs);
                nimbus.killTopologyWithOpts(name, options);
                out.println("Killed topology: " + name);
            }
            case ACTIVATE -> {
                nimbus.activate(name);
                out.println("Activated topology: " + name);
            }
            case DEACTIVATE -> {
                nimbus.deactivate(name);
                out.println("Deactivated topology: " + name);
            }
            case REBALANCE -> {
                RebalanceOptions options = new RebalanceOptions();
                command.waitSecs().ifPresent(options::set_wait_secs);
                if (!command.executors().isEmpty()) {
                    options.set_num_executors(new HashMap<>(command.executors()));
                }
                nimbus.rebalance(name, options);
                out.println("Topology " + name + " is rebalancing");
            }
            default -> throw new IllegalStateException("unknown verb " + command.verb());
        }
    }

    private void list(List<TopologySummary> topologies) {
        if (topologies.isEmpty()) {
            out.println("No topologies running.");
            return;
        }
        String format = "%-24s %-10s %9s %11s  %s%n";
        out.printf(format, "NAME", "STATUS", "TASKS", "UPTIME_SECS", "ID");
        for (TopologySummary t : topologies) {
            out.printf(format, t.get_name(), t.get_status(), t.get_num_tasks(), t.get_uptime_secs(), t.get_id());
        }
    }
}
