package io.microburst;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** Collects what one logger logs at warning level or above while attached (the build's logging may hide it). */
final class LogCapture extends AbstractAppender implements AutoCloseable {
    final List<String> messages = new CopyOnWriteArrayList<>();
    private final Logger logger;
    private final Level level;

    LogCapture(Class<?> type) {
        this(type.getName());
    }

    LogCapture(String loggerName) {
        super("capture-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        logger = (Logger) LogManager.getLogger(loggerName);
        level = logger.getLevel();
        start();
        logger.addAppender(this);
        logger.setLevel(Level.WARN);
    }

    @Override
    public void append(LogEvent event) {
        if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
            messages.add(event.getMessage().getFormattedMessage());
        }
    }

    @Override
    public void close() {
        logger.removeAppender(this);
        logger.setLevel(level);
        stop();
    }
}
