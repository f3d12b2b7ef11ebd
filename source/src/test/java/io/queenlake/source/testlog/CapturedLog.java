package io.queenlake.source.testlog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** The lines one class logs at WARN and above while the capture is open: "LEVEL message". */
public final class CapturedLog extends AbstractAppender implements AutoCloseable {

    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();

    private CapturedLog(Class<?> source) {
        super("captured-" + source.getSimpleName(), null, null, true, Property.EMPTY_ARRAY);
        this.logger = (Logger) LogManager.getLogger(source);
    }

    public static CapturedLog of(Class<?> source) {
        CapturedLog log = new CapturedLog(source);
        log.start();
        log.logger.addAppender(log);
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
        stop();
    }
}
