package io.microburst.runtime.task;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.filter.AbstractFilter;

/**
 * A log4j2 filter that drops the warnings and errors storm-client's multi-lang classes (ShellBolt, ShellSpout) log on
 * a thread whose executor is being stopped ({@link StopScope#endedByStop}): the "Halting process: ShellBolt died ...
 * Pipe to subprocess seems to be broken" that follows cleanup's destroying the subprocess. Their other lines, and any
 * line logged before the stop, pass. Installed once per log4j2 configuration, on the logger configuration those
 * loggers use, when a stop first begins; when the logging backend is not log4j2's core, nothing is installed.
 *
 * <p>Threading: {@link #installOnce} on executor threads as they stop (synchronized); {@link #filter(LogEvent)} on
 * any thread that logs through that configuration.
 */
final class StopLogFilter extends AbstractFilter {
    private static final String[] MULTI_LANG = {"org.apache.storm.task.ShellBolt", "org.apache.storm.spout.ShellSpout"};
    /** The configuration the filter was last installed on: a reconfiguration drops it, so it is installed again. */
    private static Configuration installedOn;

    StopLogFilter() {
        super(Filter.Result.DENY, Filter.Result.NEUTRAL);
    }

    static synchronized void installOnce() {
        if (!(LogManager.getContext(false) instanceof LoggerContext context)) {
            return;
        }
        Configuration config = context.getConfiguration();
        if (config == installedOn) {
            return;
        }
        StopLogFilter filter = new StopLogFilter();
        filter.start();
        for (String name : MULTI_LANG) {
            LoggerConfig logger = config.getLoggerConfig(name);
            if (!alreadyFiltered(logger)) {
                logger.addFilter(filter);
            }
        }
        installedOn = config;
        context.updateLoggers();
    }

    private static boolean alreadyFiltered(LoggerConfig logger) {
        Filter current = logger.getFilter();
        if (current instanceof StopLogFilter) {
            return true;
        }
        if (current instanceof org.apache.logging.log4j.core.filter.CompositeFilter composite) {
            for (Filter f : composite.getFiltersArray()) {
                if (f instanceof StopLogFilter) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public Filter.Result filter(LogEvent event) {
        if (!event.getLevel().isMoreSpecificThan(Level.WARN) || !isMultiLang(event.getLoggerName())) {
            return Filter.Result.NEUTRAL;
        }
        return StopScope.endedByStop() ? Filter.Result.DENY : Filter.Result.NEUTRAL;
    }

    private static boolean isMultiLang(String loggerName) {
        for (String name : MULTI_LANG) {
            if (name.equals(loggerName)) {
                return true;
            }
        }
        return false;
    }
}
