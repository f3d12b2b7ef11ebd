package io.queenlake.source.testlog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.core.config.Property;

/**
 * The lines one class logs at INFO and above while the capture is open, as "LEVEL message"; the
 * class's logger is set to INFO meanwhile (a module without a test log configuration logs ERROR only).
 */
public final class CapturedLog extends AbstractAppender implements AutoCloseable {

    private final Logger logger;
    private final Level before;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private CapturedLog(String loggerName) {
        super("captured-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
        this.logger = (Logger) LogManager.getLogger(loggerName);
        this.before = logger.getLevel();
    }

    public static CapturedLog of(Class<?> source) {
        return of(source.getName());
    }

    /** The lines of a logger by name: a class another package cannot name (package-private) logs under its own. */
    public static CapturedLog of(String loggerName) {
        CapturedLog log = new CapturedLog(loggerName);
        log.start();
        log.logger.addAppender(log); // a logger configuration of its own, at its parent's level
        Configurator.setLevel(log.logger.getName(), Level.INFO);
        return log;
    }

    @Override
    public void append(LogEvent event) {
        lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeAppender(this);
        Configurator.setLevel(logger.getName(), before);
        stop();
    }
}
