package io.queenlake.job.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.AbstractConfiguration;
import org.apache.logging.log4j.core.config.AppenderRef;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/**
 * The log of a job that shares its console with a command's own lines (the demo's): every log
 * event that went to the console (Flink, the source, the sink, the dev stack) goes to a file
 * instead, at the levels the logging configuration gives, so the console keeps the command's lines
 * alone and nothing shows twice. {@link #close()} puts the console back.
 */
final class JobLog implements AutoCloseable {

    private static final String APPENDER = "queen-lake-job-log";
    private static final String PATTERN = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level [%t] %c - %msg%n";

    private final LoggerContext context;
    private final FileAppender file;
    private final Path path;
    /** The console appenders taken off each logger, to put back. */
    private final Map<LoggerConfig, List<Appender>> consoles;

    private JobLog(LoggerContext context, FileAppender file, Path path, Map<LoggerConfig, List<Appender>> consoles) {
        this.context = context;
        this.file = file;
        this.path = path;
        this.consoles = consoles;
    }

    /** From now on the log goes to {@code path} (written afresh) instead of the console. */
    static JobLog toFile(Path path) throws IOException {
        Path absolute = path.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        LoggerContext context = LoggerContext.getContext(false);
        Configuration config = context.getConfiguration();
        FileAppender file = FileAppender.newBuilder()
                .setName(APPENDER)
                .withFileName(absolute.toString())
                .withAppend(false)
                .setLayout(PatternLayout.newBuilder().withConfiguration(config).withPattern(PATTERN).build())
                .setConfiguration(config)
                .build();
        file.start();
        config.addAppender(file);
        Map<LoggerConfig, List<Appender>> consoles = new LinkedHashMap<>();
        for (LoggerConfig logger : loggers(config)) {
            List<Appender> taken = new ArrayList<>();
            for (Appender appender : logger.getAppenders().values()) {
                if (appender instanceof ConsoleAppender) {
                    taken.add(appender);
                }
            }
            if (!taken.isEmpty()) {
                taken.forEach(appender -> logger.removeAppender(appender.getName()));
                logger.addAppender(file, null, null);
                consoles.put(logger, taken);
            }
        }
        if (consoles.isEmpty()) {
            // The configuration logs nowhere near the console: the file gets a copy, so it still holds the job's log.
            config.getRootLogger().addAppender(file, null, null);
        }
        context.updateLoggers();
        return new JobLog(context, file, absolute, consoles);
    }

    Path path() {
        return path;
    }

    /** The console appenders back where they were, the file closed. */
    @Override
    public void close() {
        Configuration config = context.getConfiguration();
        if (config instanceof AbstractConfiguration known) {
            known.removeAppender(APPENDER);
        } else {
            loggers(config).forEach(logger -> logger.removeAppender(APPENDER));
        }
        consoles.forEach((logger, taken) -> {
            for (Appender appender : taken) {
                AppenderRef ref = logger.getAppenderRefs().stream()
                        .filter(r -> r.getRef().equals(appender.getName())).findFirst().orElse(null);
                logger.addAppender(appender, ref == null ? null : ref.getLevel(), ref == null ? null : ref.getFilter());
            }
        });
        context.updateLoggers();
        file.stop();
    }

    private static List<LoggerConfig> loggers(Configuration config) {
        List<LoggerConfig> all = new ArrayList<>(config.getLoggers().values());
        if (!all.contains(config.getRootLogger())) {
            all.add(config.getRootLogger());
        }
        return all;
    }
}
