package io.microburst.cli.remote;

import io.microburst.cli.CommandFailedException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.storm.Config;
import org.apache.storm.generated.AuthorizationException;
import org.apache.storm.generated.InvalidTopologyException;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.utils.NimbusClient;
import org.apache.storm.utils.NimbusLeaderNotFoundException;
import org.apache.storm.utils.ObjectReader;
import org.apache.storm.utils.Utils;

/**
 * One conversation of a verb with the configured Nimbus (storm-client's {@code NimbusClient}, found through
 * {@code nimbus.seeds} and {@code nimbus.thrift.port}), with the ordinary ways it fails turned into one line that
 * names the verb, the topology or the address and says what to do: no such topology, no server listening, a
 * refusal. Anything else is left to {@link io.microburst.cli.Main}, which reports it as a crash.
 *
 * <p>Threading: stateless; the calling thread.
 */
public final class NimbusCall {
    /** How long a connection attempt to a configured address may take before it counts as nothing listening. */
    private static final int PROBE_TIMEOUT_MS = 2000;

    private NimbusCall() {
    }

    /** Storm's configuration (defaults.yaml, storm.yaml, storm.options) with the command line's overrides. */
    public static Map<String, Object> clientConf(Map<String, Object> overrides) {
        Map<String, Object> conf = new HashMap<>(Utils.readStormConfig());
        conf.putAll(overrides);
        return conf;
    }

    /**
     * Runs {@code body} with a client of the configured Nimbus.
     *
     * @param verb the verb, as the user typed it, for the message
     * @param topology the topology the verb is about, or null
     */
    public static void run(String verb, Map<String, Object> conf, String topology, NimbusClient.WithNimbus body)
        throws Exception {
        requireListening(conf);
        try {
            NimbusClient.withConfiguredClient(body, conf);
        } catch (NotAliveException | AuthorizationException | InvalidTopologyException | TApplicationException e) {
            throw explain(verb, topology, e);
        } catch (RuntimeException e) {
            if (isUnreachable(e)) {
                throw unreachable(conf, e);
            }
            throw e;
        }
    }

    /**
     * The one line for an ordinary refusal of a call about {@code topology} (null: none): not running, not
     * authorized, an invalid request, a call the server does not serve; null for any other failure.
     */
    public static CommandFailedException explain(String verb, String topology, Exception e) {
        String about = verb + (topology == null ? "" : " " + topology);
        if (e instanceof NotAliveException) {
            return new CommandFailedException(verb + ": no topology named '" + topology + "' is running; "
                + "'microburst list' shows the running ones", e);
        } else if (e instanceof AuthorizationException denied) {
            return new CommandFailedException(about + ": not authorized: " + denied.get_msg(), e);
        } else if (e instanceof InvalidTopologyException invalid) {
            return new CommandFailedException(about + ": refused: " + invalid.get_msg(), e);
        } else if (e instanceof TApplicationException) {
            return new CommandFailedException(verb + ": the server refused the call: " + e.getMessage(), e);
        }
        return null;
    }

    /**
     * Fails at once, with {@link #unreachable}'s line, when nothing accepts a connection at any configured Nimbus
     * address: storm-client's {@code NimbusClient} would retry each seed for about 12 s first
     * ({@code storm.nimbus.retry.times}, {@code storm.nimbus.retry.interval.millis}). Anything that accepts gets the
     * client's own retries, as with {@code storm}. Nothing is checked when a test installed a local Nimbus
     * ({@code NimbusClient.LocalOverride}).
     */
    public static void requireListening(Map<String, Object> conf) throws CommandFailedException {
        if (NimbusClient.isLocalOverride()) {
            return;
        }
        for (String address : addresses(conf)) {
            if (accepts(address)) {
                return;
            }
        }
        throw unreachable(conf, null);
    }

    /** Whether storm-client found no Nimbus at the configured seeds, somewhere in {@code e}'s causes. */
    public static boolean isUnreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof NimbusLeaderNotFoundException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The one line for "no Nimbus answered": the addresses tried and, after one plain connection attempt to each, whether
     * nothing listens there (the server is not running) or something does but did not answer as a Nimbus.
     */
    public static CommandFailedException unreachable(Map<String, Object> conf, Throwable cause) {
        List<String> addresses = addresses(conf);
        List<String> listening = new ArrayList<>();
        for (String address : addresses) {
            if (accepts(address)) {
                listening.add(address);
            }
        }
        String where = String.join(", ", addresses);
        if (listening.isEmpty()) {
            return new CommandFailedException("cannot reach Nimbus at " + where + ": is 'microburst server' running? ("
                + Config.NIMBUS_SEEDS + ", " + Config.NIMBUS_THRIFT_PORT + ")", cause);
        }
        return new CommandFailedException("Nimbus at " + String.join(", ", listening) + " accepts connections but did"
            + " not answer: check " + Config.NIMBUS_THRIFT_TRANSPORT_PLUGIN + " and the credentials, as the server"
            + " has them", cause);
    }

    private static List<String> addresses(Map<String, Object> conf) {
        Object seeds = conf.get(Config.NIMBUS_SEEDS);
        String port = String.valueOf(conf.get(Config.NIMBUS_THRIFT_PORT));
        List<String> addresses = new ArrayList<>();
        if (seeds instanceof List<?> list) {
            list.forEach(seed -> addresses.add(ObjectReader.getString(seed) + ":" + port));
        }
        if (addresses.isEmpty()) {
            addresses.add("(no " + Config.NIMBUS_SEEDS + ")");
        }
        return addresses;
    }

    private static boolean accepts(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address.substring(0, colon),
                Integer.parseInt(address.substring(colon + 1))), PROBE_TIMEOUT_MS);
            return true;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }
}
