package io.queenlake.connector.testutils;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * The lines one class logs at {@code level} or above while it is open, as {@code "LEVEL message"},
 * whatever the test log configuration says; closing restores the logger.
 */
public final class CapturedLog implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger;
    private final Level before;
    private final AbstractAppender appender;

    public CapturedLog(Class<?> of, Level level) {
        logger = LoggerContext.getContext(false).getLogger(of.getName());
        appender = new AbstractAppender("captured-" + of.getSimpleName(), null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
            }
        };
        appender.start();
        before = logger.getLevel();
        logger.addAppender(appender); // (re-reads the configuration's level, so the level is set after it)
        logger.setLevel(level);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        logger.setLevel(before);
        appender.stop();
    }
}
