package io.queenlake.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The `flink run` jar this module builds, as the tests that submit it find it. */
final class FlinkRunJar {

    /** dist/target, as the build passes it. */
    static final Path TARGET = Path.of(System.getProperty("dist.target", "target")).toAbsolutePath();
    static final Path JAR = TARGET.resolve("queen-lake-0.1.0.jar");

    private FlinkRunJar() {}

    /** The jar is built and newer than the job's classes: the tests run in integration-test, after package. */
    static void assertBuilt() throws IOException {
        assertThat(JAR).as("the flink run jar; build it with mvn package first").exists();
        Path classes = TARGET.resolve("../../job/target/classes/io/queenlake/job/LakeJob.class").normalize();
        assertThat(Files.getLastModifiedTime(JAR)).as("%s is older than %s: this test runs in the integration-test"
                + " phase after package (mvn -pl dist -am verify)", JAR, classes)
                .isGreaterThanOrEqualTo(Files.getLastModifiedTime(classes));
    }

    /** bin/flink's log4j-cli.properties in {@code confDir}: the front end logs to the console. */
    static void writeCliLogging(Path confDir) throws IOException {
        Files.writeString(confDir.resolve("log4j-cli.properties"), String.join("\n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.console.ref = ConsoleAppender",
                "appender.console.name = ConsoleAppender",
                "appender.console.type = CONSOLE",
                "appender.console.layout.type = PatternLayout",
                "appender.console.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n",
                ""));
    }
}
