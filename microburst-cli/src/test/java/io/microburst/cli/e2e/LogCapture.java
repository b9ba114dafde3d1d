package io.microburst.cli.e2e;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Warnings and errors of storm-client's multi-lang classes and of Microburst's runtime, as they reach the root logger's
 * appenders, each as {@code LEVEL logger - message}. Installed by a test around the operation it watches, removed in a
 * finally. Threading: {@link #install} and {@link #remove} on the test's thread; {@link #append} on any logging thread.
 */
final class LogCapture extends AbstractAppender {
    private final Queue<String> events = new ConcurrentLinkedQueue<>();

    private LogCapture() {
        super("quiet-stop-capture", null, null, true, Property.EMPTY_ARRAY);
    }

    static LogCapture install() {
        LogCapture capture = new LogCapture();
        capture.start();
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().addAppender(capture, Level.WARN, null);
        context.updateLoggers();
        return capture;
    }

    void remove() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        context.getConfiguration().getRootLogger().removeAppender(getName());
        context.updateLoggers();
        stop();
    }

    /** What was captured so far, in order. */
    List<String> events() {
        return List.copyOf(events);
    }

    @Override
    public void append(LogEvent event) {
        String logger = event.getLoggerName();
        if (logger.startsWith("org.apache.storm.task.Shell") || logger.startsWith("org.apache.storm.spout.Shell")
                || logger.startsWith("io.microburst.runtime")) {
            events.add(event.getLevel() + " " + logger + " - " + event.getMessage().getFormattedMessage());
        }
    }
}
