package io.microburst.server.web;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.storm.generated.KillOptions;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.LogLevel;
import org.apache.storm.generated.LogLevelAction;
import org.apache.storm.generated.Nimbus;
import org.apache.storm.generated.NotAliveException;
import org.apache.storm.generated.RebalanceOptions;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.shade.net.minidev.json.JSONValue;
import org.apache.storm.thrift.TException;

/**
 * The state-changing operations of Storm's UI REST API, with Storm's bodies and answers: {@code activate},
 * {@code deactivate}, {@code kill/WAIT}, {@code rebalance/WAIT} ({@link RebalanceBody}), {@code debug/ACTION/PCT} for
 * a topology or a component (through Nimbus' {@code debug}: {@link DebugSampling}), and {@code logconfig} (GET and
 * POST, Storm's {@code namedLoggerLevels}). A malformed body or parameter is an {@link IllegalArgumentException}
 * (HTTP 400). Stateless; thread-safe.
 */
final class TopologyActions {
    private final Nimbus.Iface nimbus;

    TopologyActions(Nimbus.Iface nimbus) {
        this.nimbus = nimbus;
    }

    Map<String, Object> activate(String id, boolean active) throws TException {
        String name = nimbus.getTopologySummary(id).get_name();
        if (active) {
            nimbus.activate(name);
        } else {
            nimbus.deactivate(name);
        }
        return operation(active ? "activate" : "deactivate", id);
    }

    Map<String, Object> kill(String id, int waitSecs) throws TException {
        KillOptions options = new KillOptions();
        options.set_wait_secs(waitSecs);
        nimbus.killTopologyWithOpts(nimbus.getTopologySummary(id).get_name(), options);
        return operation("kill", id);
    }

    Map<String, Object> rebalance(String id, int waitSecs, String body) throws TException {
        RebalanceOptions options = RebalanceBody.parse(id, waitSecs, body);
        nimbus.rebalance(nimbus.getTopologySummary(id).get_name(), options);
        return operation("rebalance", id);
    }

    /**
     * Storm's {@code debug/enable|disable/PCT}: event logging of the topology, or of one component, at PCT percent of
     * its emits, through Nimbus' {@code debug} ({@link DebugSampling}), so that the setting is stored as Thrift's is.
     */
    Map<String, Object> debug(String id, String component, String action, String pct) throws TException {
        if (!"enable".equals(action) && !"disable".equals(action)) {
            throw new IllegalArgumentException("debug action must be 'enable' or 'disable', got '" + action + "'");
        }
        double samplingPct;
        try {
            samplingPct = Double.parseDouble(pct);
        } catch (NumberFormatException e) {
            samplingPct = -1;
        }
        if (!(samplingPct >= 0 && samplingPct <= 100)) {
            throw new IllegalArgumentException("the sampling percentage must be a number from 0 to 100, got '" + pct + "'");
        }
        StormTopology topology = nimbus.getUserTopology(id);
        if (component != null && !topology.get_bolts().containsKey(component)
            && !topology.get_spouts().containsKey(component)) {
            throw new NotAliveException("Topology '" + id + "' has no component '" + component + "'");
        }
        nimbus.debug(nimbus.getTopologySummary(id).get_name(), component, "enable".equals(action), samplingPct);
        return operation("debug/" + action, id);
    }

    Map<String, Object> logConfig(String id) throws TException {
        return logConfigJson(nimbus.getLogConfig(id));
    }

    /**
     * Storm's {@code {"namedLoggerLevels": {LOGGER: {"target_level": LEVEL, "timeout": SECS}}}}; a logger whose
     * target level is missing or null goes back to its previous level.
     */
    Map<String, Object> setLogConfig(String id, String body) throws TException {
        Object parsed = body == null ? null : JSONValue.parse(body);
        Object named = parsed instanceof Map<?, ?> map ? map.get("namedLoggerLevels") : null;
        if (!(named instanceof Map<?, ?> loggers)) {
            throw new IllegalArgumentException("logconfig needs a JSON body {\"namedLoggerLevels\": {\"LOGGER\": "
                + "{\"target_level\": \"DEBUG\", \"timeout\": 30}}}");
        }
        LogConfig config = new LogConfig();
        for (Map.Entry<?, ?> e : loggers.entrySet()) {
            if (!(e.getValue() instanceof Map<?, ?> setting)) {
                throw new IllegalArgumentException("logconfig: logger '" + e.getKey() + "' needs an object "
                    + "{\"target_level\": LEVEL, \"timeout\": SECONDS}");
            }
            LogLevel level = new LogLevel();
            Object target = setting.get("target_level");
            if (target == null) {
                level.set_action(LogLevelAction.REMOVE);
            } else {
                Level known = Level.getLevel(String.valueOf(target).toUpperCase(Locale.ROOT));
                if (known == null) {
                    throw new IllegalArgumentException("logconfig: unknown level '" + target + "' for logger '"
                        + e.getKey() + "' (use TRACE, DEBUG, INFO, WARN, ERROR, FATAL, OFF or ALL)");
                }
                level.set_action(LogLevelAction.UPDATE);
                level.set_target_log_level(known.name());
                level.set_reset_log_level_timeout_secs(timeout(e.getKey(), setting.get("timeout")));
            }
            config.put_to_named_logger_level(String.valueOf(e.getKey()), level);
        }
        nimbus.setLogConfig(id, config);
        return logConfig(id);
    }

    private static int timeout(Object logger, Object value) {
        if (value == null) {
            return 0;
        }
        try {
            int secs = Integer.parseInt(String.valueOf(value));
            if (secs >= 0) {
                return secs;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("logconfig: the timeout of logger '" + logger + "' must be whole seconds, "
            + "0 or more, got '" + value + "'");
    }

    private static Map<String, Object> logConfigJson(LogConfig config) {
        Map<String, Object> loggers = new LinkedHashMap<>();
        if (config.is_set_named_logger_level()) {
            config.get_named_logger_level().forEach((name, level) -> {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("target_level", level.get_target_log_level());
                row.put("reset_level", level.get_reset_log_level());
                row.put("timeout", level.get_reset_log_level_timeout_secs());
                row.put("timeout_epoch", level.get_reset_log_level_timeout_epoch());
                loggers.put(name, row);
            });
        }
        return Map.of("namedLoggerLevels", loggers);
    }

    private static Map<String, Object> operation(String what, String id) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("topologyOperation", what);
        json.put("topologyId", id);
        json.put("status", "success");
        return json;
    }
}
