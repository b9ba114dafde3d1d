package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import java.io.PrintStream;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.DRPCExecutionException;
import org.apache.storm.utils.DRPCClient;

/**
 * {@code microburst drpc-client}: each call through storm-client's {@code DRPCClient} to one of {@code drpc.servers}
 * on {@code drpc.port}, in order, printing {@code FUNCTION "ARG" => "RESULT"} as {@code storm drpc-client} does. The
 * first failing call stops the run with a message naming the function, the argument and the server.
 */
public final class DrpcClientRun {
    private final Command.DrpcCalls command;
    private final PrintStream out;

    public DrpcClientRun(Command.DrpcCalls command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    public int run() throws Exception {
        Map<String, Object> conf = AdminRun.clientConf(command.conf());
        if (conf.get(Config.DRPC_SERVERS) == null) {
            throw new CommandFailedException("drpc-client: drpc.servers is not set: give the DRPC servers with "
                + "-c drpc.servers='[\"HOST\"]' (and -c drpc.port=PORT) or in storm.yaml (a microburst server serves DRPC "
                + "when started with --drpc)");
        }
        DRPCClient drpc;
        try {
            drpc = DRPCClient.getConfiguredClient(conf);
        } catch (RuntimeException e) {
            throw new CommandFailedException("drpc-client: cannot reach a DRPC server of drpc.servers "
                + conf.get(Config.DRPC_SERVERS) + " on drpc.port " + conf.get(Config.DRPC_PORT) + ": " + e.getMessage(), e);
        }
        try (drpc) {
            for (Command.DrpcCall call : command.calls()) {
                String result;
                try {
                    result = drpc.execute(call.function(), call.argument());
                } catch (DRPCExecutionException e) {
                    throw new CommandFailedException("drpc-client: " + call.function() + " \"" + call.argument()
                        + "\" failed on " + drpc.getHost() + ":" + drpc.getPort() + ": " + e.get_msg()
                        + (e.is_set_type() ? " (" + e.get_type() + ")" : ""), e);
                } catch (AuthorizationException e) {
                    throw new CommandFailedException("drpc-client: " + call.function() + " on " + drpc.getHost() + ":"
                        + drpc.getPort() + ": not authorized: " + e.get_msg(), e);
                }
                out.printf("%s \"%s\" => \"%s\"%n", call.function(), call.argument(), result);
            }
        }
        return 0;
    }
}
