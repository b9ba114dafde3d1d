package io.microburst;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects what one logger logs at warning level or above while attached (the build's logging may hide it), with the
 * message of the exception logged when asked to.
 */
final class LogCapture extends AbstractAppender implements AutoCloseable {
    final List<String> messages = new CopyOnWriteArrayList<>();
    private final Logger logger;
    private final Level level;
    private final boolean withThrown;

    LogCapture(Class<?> type) {
        this(type.getName());
    }

    LogCapture(String loggerName) {
        this(loggerName, false);
    }

    LogCapture(String loggerName, boolean withThrown) {
        super("capture-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        logger = (Logger) LogManager.getLogger(loggerName);
        level = logger.getLevel();
        this.withThrown = withThrown;
        start();
        logger.addAppender(this);
        logger.setLevel(Level.WARN);
    }

    @Override
    public void append(LogEvent event) {
        if (event.getLevel().isMoreSpecificThan(Level.WARN)) {
            String thrown = withThrown && event.getThrown() != null ? " " + event.getThrown().getMessage() : "";
            messages.add(event.getMessage().getFormattedMessage() + thrown);
        }
    }

    @Override
    public void close() {
        logger.removeAppender(this);
        logger.setLevel(level);
        stop();
    }
}
