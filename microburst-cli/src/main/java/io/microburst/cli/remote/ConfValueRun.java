package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.utils.ObjectReader;

/**
 * {@code microburst localconfvalue|remoteconfvalue KEY}: prints {@code KEY: VALUE} as {@code storm localconfvalue}
 * does (a list as its elements separated by spaces, an unset key as {@code null}). The local value is this machine's
 * Storm configuration with the {@code -c} overrides; the remote one is the configuration the Nimbus runs with
 * ({@code getNimbusConf}), where Storm's script reads the cluster's own files on a cluster machine.
 */
public final class ConfValueRun {
    private final Command.ConfValue command;
    private final PrintStream out;

    public ConfValueRun(Command.ConfValue command, PrintStream out) {
        this.command = command;
        this.out = out;
    }

    public int run() throws Exception {
        Map<String, Object> conf = AdminRun.clientConf(command.conf());
        Object value = command.remote() ? remote(conf).get(command.key()) : conf.get(command.key());
        out.println(command.key() + ": " + text(value));
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> remote(Map<String, Object> clientConf) throws Exception {
        AtomicReference<Object> parsed = new AtomicReference<>();
        NimbusCall.run("remoteconfvalue", clientConf, null, nimbus -> parsed.set(JSONValue.parse(nimbus.getNimbusConf())));
        if (!(parsed.get() instanceof Map)) {
            throw new CommandFailedException("remoteconfvalue: the Nimbus answered getNimbusConf with no configuration");
        }
        return (Map<String, Object>) parsed.get();
    }

    static String text(Object value) {
        if (value instanceof List<?> list) {
            List<String> parts = new ArrayList<>();
            list.forEach(element -> parts.add(ObjectReader.getString(element)));
            return String.join(" ", parts);
        }
        return String.valueOf(value);
    }
}
