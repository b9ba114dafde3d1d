package io.microburst.server;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.storm.generated.LogConfig;
import org.apache.storm.generated.LogLevel;
import org.apache.storm.generated.LogLevelAction;
import org.apache.storm.thrift.TApplicationException;
import org.apache.storm.thrift.TException;

/**
 * Storm's {@code setLogConfig}/{@code getLogConfig} (the {@code storm set_log_level} command) on log4j2: a logger's
 * level is set, optionally reset to its previous level after a timeout, or reset at once with REMOVE; {@code ROOT}
 * names the root logger as in Storm. Every topology runs in this one process, so a level set for one topology applies
 * to the named logger everywhere in the server; {@code getLogConfig} answers per topology with what was set for it.
 *
 * <p>Thread-safe (synchronised); resets run on the given scheduler.
 */
final class LogLevels {
    private static final String ROOT = "ROOT";

    private final ScheduledExecutorService scheduler;
    /** Topology name to the loggers set for it, as last sent. */
    private final Map<String, Map<String, LogLevel>> byTopology = new HashMap<>();
    /** Logger name to its level before the first change, to go back to. */
    private final Map<String, Level> original = new HashMap<>();
    private final Map<String, ScheduledFuture<?>> resets = new HashMap<>();

    LogLevels(ScheduledExecutorService scheduler) {
        this.scheduler = scheduler;
    }

    synchronized void set(String topology, LogConfig config) throws TException {
        if (config == null || config.get_named_logger_level() == null) {
            return;
        }
        Map<String, LogLevel> current = byTopology.computeIfAbsent(topology, t -> new HashMap<>());
        for (Map.Entry<String, LogLevel> e : config.get_named_logger_level().entrySet()) {
            String logger = e.getKey();
            LogLevel request = e.getValue();
            if (request.get_action() == LogLevelAction.REMOVE) {
                reset(logger);
                current.remove(logger);
                continue;
            }
            Level level = Level.getLevel(String.valueOf(request.get_target_log_level()).toUpperCase(java.util.Locale.ROOT));
            if (level == null) {
                throw new TApplicationException(TApplicationException.UNKNOWN, "setLogConfig: unknown log level '"
                    + request.get_target_log_level() + "' for logger '" + logger + "'");
            }
            original.putIfAbsent(logger, configuredLevel(logger));
            Configurator.setLevel(log4jName(logger), level);
            cancelReset(logger);
            if (request.get_reset_log_level_timeout_secs() > 0) {
                request.set_reset_log_level_timeout_epoch(System.currentTimeMillis()
                    + TimeUnit.SECONDS.toMillis(request.get_reset_log_level_timeout_secs()));
                resets.put(logger, scheduler.schedule(() -> expire(topology, logger),
                    request.get_reset_log_level_timeout_secs(), TimeUnit.SECONDS));
            }
            current.put(logger, request);
        }
    }

    synchronized LogConfig get(String topology) {
        LogConfig config = new LogConfig();
        config.set_named_logger_level(new HashMap<>(byTopology.getOrDefault(topology, Map.of())));
        return config;
    }

    /** Forgets a killed topology's settings and resets its loggers. */
    synchronized void forget(String topology) {
        Map<String, LogLevel> set = byTopology.remove(topology);
        if (set != null) {
            set.keySet().forEach(this::reset);
        }
    }

    private synchronized void expire(String topology, String logger) {
        resets.remove(logger);
        reset(logger);
        Map<String, LogLevel> set = byTopology.get(topology);
        if (set != null) {
            set.remove(logger);
        }
    }

    private void reset(String logger) {
        cancelReset(logger);
        Level previous = original.remove(logger);
        if (previous != null) {
            Configurator.setLevel(log4jName(logger), previous);
        }
    }

    private void cancelReset(String logger) {
        ScheduledFuture<?> pending = resets.remove(logger);
        if (pending != null) {
            pending.cancel(false);
        }
    }

    /** The level the logger has from its configuration (its own, or the nearest configured parent's). */
    private static Level configuredLevel(String logger) {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        LoggerConfig config = context.getConfiguration().getLoggerConfig(log4jName(logger));
        return config.getLevel();
    }

    private static String log4jName(String logger) {
        return ROOT.equalsIgnoreCase(logger) ? LogManager.ROOT_LOGGER_NAME : logger;
    }
}
