package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.utils.Utils;

/**
 * {@code microburst kill NAME...}, as storm-core's {@code KillTopology}: every name is checked first (an invalid one
 * stops the command before anything is killed, or with {@code -i} is left out and counted); then each topology is
 * killed in the order given, over one Nimbus connection, with the same wait, printing Storm's
 * {@code Killed topology: NAME}. Without {@code -i} the first kill that fails ends the command (those before it stay
 * killed); with it, each failure is one line on stderr, the others are still killed, and the command fails at the end
 * saying how many could not be. Exit 0 only when every topology was killed.
 *
 * <p>Threading: the calling thread.
 */
public final class KillRun {
    private final Command.Kill command;
    private final PrintStream out;
    private final PrintStream err;
    private int failures;

    public KillRun(Command.Kill command, PrintStream out, PrintStream err) {
        this.command = command;
        this.out = out;
        this.err = err;
    }

    public int run() throws Exception {
        List<String> names = validNames();
        KillOptions options = new KillOptions();
        command.waitSecs().ifPresent(options::set_wait_secs);
        if (!names.isEmpty()) {
            String first = names.get(0);
            NimbusCall.run("kill", AdminRun.clientConf(command.conf()), first, nimbus -> {
                for (String name : names) {
                    kill(nimbus, name, options);
                }
            });
        }
        if (failures > 0) {
            int total = command.topologies().size();
            throw new CommandFailedException("kill: " + failures + " of the " + total + " topologies named could not"
                + " be killed (see above)");
        }
        return 0;
    }

    /** The names Storm accepts, in order; an invalid one fails the command, or with -i is reported and counted. */
    private List<String> validNames() throws CommandFailedException {
        List<String> valid = new ArrayList<>();
        for (String name : command.topologies()) {
            try {
                Utils.validateTopologyName(name);
                valid.add(name);
            } catch (IllegalArgumentException e) {
                String line = "kill: '" + name + "' is not a valid topology name (" + e.getMessage() + ")";
                if (!command.ignoreErrors()) {
                    throw new CommandFailedException(line + "; nothing was killed");
                }
                err.println("microburst: " + line);
                failures++;
            }
        }
        return valid;
    }

    private void kill(Nimbus.Iface nimbus, String name, KillOptions options) throws Exception {
        try {
            nimbus.killTopologyWithOpts(name, options);
            out.println("Killed topology: " + name);
        } catch (Exception e) {
            CommandFailedException explained = NimbusCall.explain("kill", name, e);
            if (!command.ignoreErrors()) {
                throw explained != null ? explained : e;
            }
            err.println("microburst: " + (explained != null ? explained.getMessage()
                : "kill " + name + ": failed: " + e) + "; going on (-i)");
            failures++;
        }
    }
}
