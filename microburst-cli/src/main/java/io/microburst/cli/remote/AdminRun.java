package io.microburst.cli.remote;

import io.microburst.cli.Command;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.TopologySummary;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * {@code microburst list|activate|deactivate|rebalance}: one call to the Nimbus that {@code nimbus.seeds} and
 * {@code nimbus.thrift.port} name (Storm's configuration with the {@code -c} overrides), through Storm's
 * {@code NimbusClient}, so it works against a {@code microburst server} and a Storm cluster alike. What Storm's command
 * prints or logs as its result is printed on stdout with the same text: {@code list} prints Storm's table
 * ({@code storm list}'s columns, widths and dashed line, which scripts parse), the others Storm's one-line message.
 *
 * <p>Threading: the calling thread.
 */
public final class AdminRun {
    /** {@code storm list}'s row: seven left-aligned columns of fixed widths, each line ended by a bare newline. */
    static final String LIST_ROW = "%-20s %-10s %-10s %-12s %-12s %-20s %-20s\n";
    static final String LIST_RULE = "-".repeat(88);

    private final Command.Admin command;
    private final PrintStream out;

    public AdminRun(Command.Admin command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    /** Storm's configuration (defaults.yaml, storm.yaml, storm.options) with the command line's overrides. */
    static Map<String, Object> clientConf(Map<String, Object> overrides) {
        return NimbusCall.clientConf(overrides);
    }

    public int run() throws Exception {
        NimbusCall.run(command.verb().name().toLowerCase(Locale.ROOT), clientConf(command.conf()),
            command.topology(), this::call);
        return 0;
    }

    private void call(Nimbus.Iface nimbus) throws Exception {
        String name = command.topology();
        switch (command.verb()) {
            case LIST -> list(nimbus.getTopologySummaries());
            case ACTIVATE -> {
                nimbus.activate(name);
                out.println("Activated topology: " + name);
            }
            case DEACTIVATE -> {
                nimbus.deactivate(name);
                out.println("Deactivated topology: " + name);
            }
            case REBALANCE -> {
                nimbus.rebalance(name, rebalanceOptions(command));
                out.println("Topology " + name + " is rebalancing");
            }
            case ROLLBACK -> {
                nimbus.rebalance(name, rebalanceOptions(command)); // the server's rollback, over Storm's Thrift
                out.println("Rolled back topology: " + name);
                SubmittedTopologies.printUpgrade(out, nimbus.getTopologySummaryByName(name));
            }
            default -> throw new IllegalStateException("unknown verb " + command.verb());
        }
    }

    /** Storm's {@code RebalanceOptions}, with only what the command line set. */
    static RebalanceOptions rebalanceOptions(Command.Admin command) {
        RebalanceOptions options = new RebalanceOptions();
        command.waitSecs().ifPresent(options::set_wait_secs);
        if (!command.executors().isEmpty()) {
            options.set_num_executors(new HashMap<>(command.executors()));
        }
        Command.RebalanceExtras extras = command.rebalance();
        extras.numWorkers().ifPresent(options::set_num_workers);
        if (!extras.resources().isEmpty()) {
            Map<String, Map<String, Double>> resources = new HashMap<>();
            extras.resources().forEach((component, amounts) -> resources.put(component, new HashMap<>(amounts)));
            options.set_topology_resources_overrides(resources);
        }
        if (!extras.topologyConf().isEmpty()) {
            options.set_topology_conf_overrides(JSONValue.toJSONString(extras.topologyConf()));
        }
        return options;
    }

    private void list(List<TopologySummary> topologies) {
        if (topologies == null || topologies.isEmpty()) {
            out.println("No topologies running.");
            return;
        }
        out.printf(LIST_ROW, "Topology_name", "Status", "Num_tasks", "Num_workers", "Uptime_secs", "Topology_Id",
            "Owner");
        out.println(LIST_RULE);
        for (TopologySummary t : topologies) {
            out.printf(LIST_ROW, t.get_name(), t.get_status(), t.get_num_tasks(), t.get_num_workers(),
                t.get_uptime_secs(), t.get_id(), t.get_owner());
        }
    }
}
