package io.microburst.cli.remote;

import io.microburst.cli.Command;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.generated.ErrorInfo;
import org.apache.storm.generated.GetInfoOptions;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.NumErrorsChoice;
import org.apache.storm.generated.TopologyInfo;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * {@code microburst get-errors}: the latest error of each component that has one, printed as the one JSON line
 * {@code storm get-errors} prints: {@code {"Topology Name":NAME,"Comp-Errors":{COMPONENT:ERROR...}}}, or
 * {@code {"Failure":"No topologies running with name NAME"}}, with exit status 0 in both cases as Storm's.
 */
public final class ErrorsRun {
    private final Command.GetErrors command;
    private final PrintStream out;

    public ErrorsRun(Command.GetErrors command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    public int run() throws Exception {
        Map<String, Object> result = new HashMap<>();
        NimbusCall.run("get-errors", AdminRun.clientConf(command.conf()), command.topology(), nimbus -> {
            GetInfoOptions options = new GetInfoOptions();
            options.set_num_err_choice(NumErrorsChoice.ONE);
            try {
                TopologyInfo info = nimbus.getTopologyInfoByNameWithOpts(command.topology(), options);
                result.put("Topology Name", info.get_name());
                result.put("Comp-Errors", latest(info.get_errors()));
            } catch (NotAliveException e) {
                result.put("Failure", "No topologies running with name " + command.topology());
            }
        });
        out.println(JSONValue.toJSONString(result));
        return 0;
    }

    /** The first error of each list: Nimbus lists a component's errors newest first. */
    private static Map<String, String> latest(Map<String, List<ErrorInfo>> errors) {
        Map<String, String> latest = new HashMap<>();
        if (errors != null) {
            errors.forEach((component, list) -> {
                if (list != null && !list.isEmpty()) {
                    latest.put(component, list.get(0).get_error());
                }
            });
        }
        return latest;
    }
}
