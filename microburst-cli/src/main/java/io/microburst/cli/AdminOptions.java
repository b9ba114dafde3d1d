package io.microburst.cli;

import io.microburst.cluster.upgrade.UpgradeOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.shade.net.minidev.json.parser.ParseException;

/**
 * Checks the options of the verbs that act on a topology through Nimbus ({@code kill}, {@code rebalance}...) and turns
 * them into a {@link Command.Admin}, with Storm's meaning for each: {@code -e COMPONENT=N} split at the last
 * {@code =}, {@code -r} and {@code -t} JSON maps, repeated ones merged. Pure; every error is a {@link UsageException}
 * naming the option and the value.
 *
 * <p>Threading: stateless; any thread.
 */
final class AdminOptions {
    private AdminOptions() {
    }

    static Command.Admin admin(Command.AdminVerb verb, Specs.ClientConf client, String topology, String wait)
        throws UsageException {
        return new Command.Admin(verb, CommandLineParser.confMap(client.conf), topology, waitSecs(wait), Map.of(),
            Command.RebalanceExtras.NONE);
    }

    static Command.Kill kill(Specs.Kill spec) throws UsageException {
        return new Command.Kill(CommandLineParser.confMap(spec.conf), spec.names, waitSecs(spec.waitSecs),
            spec.ignoreErrors);
    }

    static Command.Admin rebalance(Specs.Rebalance spec) throws UsageException {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String assignment : spec.executors) {
            int equals = assignment.lastIndexOf('=');
            if (equals <= 0) {
                throw new UsageException("--executor expects COMPONENT=N, got '" + assignment + "'");
            }
            String component = assignment.substring(0, equals);
            counts.put(component, CommandLineParser.positiveInt("--executor " + component,
                assignment.substring(equals + 1)));
        }
        OptionalInt workers = spec.numWorkers == null ? OptionalInt.empty()
            : OptionalInt.of(CommandLineParser.positiveInt("--num-workers", spec.numWorkers));
        Map<String, Map<String, Double>> resources = new LinkedHashMap<>();
        for (String json : spec.resources) {
            for (Map.Entry<String, Object> e : jsonMap("--resources", json).entrySet()) {
                resources.put(e.getKey(), amounts(e.getKey(), e.getValue(), json));
            }
        }
        Map<String, Object> topologyConf = new LinkedHashMap<>();
        for (String json : spec.topologyConf) {
            topologyConf.putAll(jsonMap("--topology-conf", json));
        }
        return new Command.Admin(Command.AdminVerb.REBALANCE, CommandLineParser.confMap(spec.conf), spec.name,
            waitSecs(spec.waitSecs), counts, new Command.RebalanceExtras(workers, resources, topologyConf));
    }

    /**
     * {@code microburst upgrade}: a submit whose configuration asks the server to take the topology as the running
     * one's new version ({@code microburst.upgrade.*}, read by the server's cluster); with {@code --rollback}, the
     * server's rollback, sent as a rebalance whose configuration overrides name it.
     */
    static Command upgrade(Specs.Upgrade spec) throws UsageException {
        List<String> p = spec.positional;
        Map<String, Object> conf = CommandLineParser.confMap(spec.conf);
        if (spec.rollback) {
            if (p.size() != 1 || !spec.renames.isEmpty() || !spec.dropState.isEmpty()) {
                throw new UsageException("upgrade --rollback takes only NAME (and -c), got '" + String.join(" ", p) + "'");
            }
            return new Command.Admin(Command.AdminVerb.ROLLBACK, conf, p.get(0), waitSecs(spec.waitSecs), Map.of(),
                new Command.RebalanceExtras(OptionalInt.empty(), Map.of(), Map.of(UpgradeOptions.ROLLBACK, true)));
        }
        if (p.size() < 3) {
            throw new UsageException(p.isEmpty() ? "upgrade: missing NAME" : p.size() == 1
                ? "upgrade: missing APP.jar after " + p.get(0) : "upgrade: missing MAIN_CLASS after " + p.get(1));
        }
        for (String rename : spec.renames) {
            if (rename.indexOf('=') <= 0 || rename.endsWith("=")) {
                throw new UsageException("--rename expects OLD=NEW (component ids), got '" + rename + "'");
            }
        }
        conf.put(UpgradeOptions.UPGRADE, true);
        conf.put(UpgradeOptions.NAME, p.get(0));
        waitSecs(spec.waitSecs).ifPresent(w -> conf.put(UpgradeOptions.WAIT_SECS, w));
        if (!spec.renames.isEmpty()) {
            conf.put(UpgradeOptions.RENAME, List.copyOf(spec.renames));
        }
        if (!spec.dropState.isEmpty()) {
            conf.put(UpgradeOptions.DROP_STATE, List.copyOf(spec.dropState));
        }
        return new Command.Submit(conf, Path.of(p.get(1)), p.get(2), p.subList(3, p.size()));
    }

    private static OptionalInt waitSecs(String wait) throws UsageException {
        if (wait == null) {
            return OptionalInt.empty();
        }
        return OptionalInt.of("0".equals(wait.trim()) ? 0 : CommandLineParser.positiveInt("--wait", wait));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> jsonMap(String option, String json) throws UsageException {
        Object parsed;
        try {
            parsed = JSONValue.parseWithException(json);
        } catch (ParseException e) {
            throw new UsageException(option + " expects a JSON map, got '" + json + "' (" + e.getMessage() + ")");
        }
        if (!(parsed instanceof Map)) {
            throw new UsageException(option + " expects a JSON map, got '" + json + "'");
        }
        return (Map<String, Object>) parsed;
    }

    /** One component's resources as Storm sends them: each amount a double. */
    private static Map<String, Double> amounts(String component, Object perResource, String json)
        throws UsageException {
        Map<String, Double> amounts = new LinkedHashMap<>();
        if (perResource instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() instanceof Number n) {
                    amounts.put(String.valueOf(e.getKey()), n.doubleValue());
                    continue;
                }
                throw new UsageException(notAmounts(component, json));
            }
            return amounts;
        }
        throw new UsageException(notAmounts(component, json));
    }

    private static String notAmounts(String component, String json) {
        return "--resources expects {\"COMPONENT\": {\"RESOURCE\": NUMBER}}, got '" + json + "' (component '"
            + component + "')";
    }

    /** What {@code -n} means here, for stderr; Storm's command has no such note. */
    static List<String> notes(Command.Admin admin) {
        if (admin.rebalance().numWorkers().isPresent()) {
            return List.of("rebalance: -n " + admin.rebalance().numWorkers().getAsInt() + " is sent as Storm's "
                + "num_workers; a microburst server runs each topology in one process and does not use it (-e "
                + "COMPONENT=N changes executors)");
        }
        return List.of();
    }
}
