package io.microburst.cli.remote;

import io.microburst.cli.Command;
import io.microburst.cli.CommandFailedException;
import io.microburst.cli.UsageException;
import io.microburst.cli.local.MainLookup;
import io.microburst.cli.local.StormOptions;
import io.microburst.cli.local.TopologyJar;
import io.microburst.cli.local.TopologyMainFailedException;
import io.microburst.cluster.upgrade.UpgradeOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.util.Map;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.shade.net.minidev.json.JSONValue;

/**
 * {@code microburst submit}: runs a topology jar's main in this JVM with {@code storm.jar} naming the jar, as
 * {@code storm jar} does, so that the main's {@code StormSubmitter} uploads the jar to the configured Nimbus and
 * submits there. The {@code -c} overrides reach the submitter the way Storm's script passes them
 * ({@code storm.options}). Then prints, for each topology the main submitted, its name, id and page
 * ({@link SubmittedTopologies}); a main that submitted none gets a line on stderr.
 *
 * <p>Threading: the calling thread (the main may start threads of its own).
 */
public final class SubmitRun {
    private final Command.Submit command;
    private final PrintStream out;
    private final PrintStream err;

    public SubmitRun(Command.Submit command, PrintStream out, PrintStream err) {
        this.command = command;
        this.out = out;
        this.err = err;
    }

    /** Returns 0 when main returned, 1 when it threw. */
    public int run() throws Exception {
        Map<String, Object> conf = NimbusCall.clientConf(command.conf());
        SubmittedTopologies submitted = SubmittedTopologies.before(conf);
        Object upgraded = command.conf().get(UpgradeOptions.NAME);
        if (upgraded != null) { // the server allows the running name to StormSubmitter's check once announced
            RebalanceOptions announce = new RebalanceOptions();
            announce.set_topology_conf_overrides(JSONValue.toJSONString(Map.of(UpgradeOptions.EXPECT, true)));
            NimbusCall.run("upgrade", conf, String.valueOf(upgraded),
                nimbus -> nimbus.rebalance(String.valueOf(upgraded), announce));
        }
        // the main's StormSubmitter reads both; put back afterwards, so that a caller in the same JVM is not left with them
        String previousJar = System.setProperty("storm.jar", command.jar().toAbsolutePath().toString());
        String previousOptions = System.setProperty(StormOptions.PROPERTY, StormOptions.encode(command.conf()));
        try (TopologyJar jar = new TopologyJar(command.jar())) {
            jar.bundlingNote().ifPresent(note -> err.println("microburst: " + note));
            Method main = MainLookup.find(jar.classLoader(), command.mainClass(), command.jar());
            MainLookup.run(main, command.mainArgs(), jar.classLoader());
        } catch (IOException e) {
            throw new UsageException(e.getMessage());
        } catch (TopologyMainFailedException e) {
            if (NimbusCall.isUnreachable(e)) {
                throw NimbusCall.unreachable(conf, e);
            }
            String refused = refusal(e);
            if (refused != null) { // an ordinary refusal (an upgrade's, a bad topology): one line, no trace
                err.println("microburst: " + refused);
                return 1;
            }
            err.println("microburst: " + e.getMessage());
            e.getCause().printStackTrace(err);
            return 1;
        } finally {
            restore("storm.jar", previousJar);
            restore(StormOptions.PROPERTY, previousOptions);
        }
        try {
            submitted.printNew(out, command.mainClass());
        } catch (CommandFailedException e) {
            err.println("microburst: " + e.getMessage());
        }
        return 0;
    }

    private static void restore(String name, String previous) {
        if (previous == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, previous);
        }
    }

    /** The message of the server's {@link InvalidTopologyException} the main's submit threw, or null. */
    private static String refusal(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidTopologyException invalid && invalid.get_msg() != null) {
                return invalid.get_msg();
            }
        }
        return null;
    }
}
