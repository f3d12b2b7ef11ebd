package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.ConsoleAppender;
import org.apache.logging.log4j.core.appender.FileAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The demo's console/log split: while a {@link JobLog} is open no logger writes to the console,
 * and what Flink and our own classes log lands in its file; closed, the console is back as it was.
 */
class JobLogTest {

    private static final String FLINK = "org.apache.flink.runtime.JobLogTestExample";
    private static final String SINK = "io.queenlake.connector.sink.JobLogTestExample";

    @TempDir
    Path dir;

    /** How many console appenders the loggers of this JVM's logging configuration write to. */
    static long consoleAppenders() {
        return appenders().filter(appender -> appender instanceof ConsoleAppender).count();
    }

    private static Stream<Appender> appenders() {
        Configuration config = LoggerContext.getContext(false).getConfiguration();
        return Stream.concat(config.getLoggers().values().stream(), Stream.of(config.getRootLogger())).distinct()
                .flatMap(logger -> logger.getAppenders().values().stream());
    }

    @Test
    void theLogGoesToTheFileInsteadOfTheConsoleUntilClosed() throws Exception {
        // The test JVM's logging configuration (from Flink's test jars) may log nothing: these two loggers log.
        Configurator.setLevel(FLINK, Level.INFO);
        Configurator.setLevel(SINK, Level.INFO);
        long before = consoleAppenders();
        assertThat(before).as("console appenders of the test JVM's logging configuration").isPositive();
        Path file = dir.resolve("demo/job.log");

        try (JobLog log = JobLog.toFile(file)) {
            assertThat(log.path()).isEqualTo(file.toAbsolutePath());
            assertThat(consoleAppenders()).as("console appenders while the log goes to the file").isZero();
            LoggerFactory.getLogger(FLINK).info("a line of Flink's");
            LoggerFactory.getLogger(SINK).warn("a line of the sink's");
        }

        assertThat(Files.readString(file, StandardCharsets.UTF_8))
                .containsPattern("INFO +\\[[^]]+] " + Pattern.quote(FLINK) + " - a line of Flink's\n")
                .containsPattern("WARN +\\[[^]]+] " + Pattern.quote(SINK) + " - a line of the sink's\n");
        assertThat(consoleAppenders()).as("console appenders after close").isEqualTo(before);
        assertThat(appenders().filter(a -> a instanceof FileAppender f && f.getFileName().equals(file.toAbsolutePath().toString())))
                .as("the file's appender after close").isEmpty();
    }
}
