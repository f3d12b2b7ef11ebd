package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A clean stop is a success: {@code run} and {@code demo}, each started as the launcher starts them
 * (a JVM of their own), stop on SIGTERM, say so, and exit 0 rather than the JVM's 143.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class StopSignalITCase {

    private static final long STARTS_WITHIN_S = 90;
    private static final long STOPS_WITHIN_S = 60;

    @TempDir
    static Path dir;

    @Test
    void runStopsOnSigtermAndExitsZero() throws Exception {
        Path out = dir.resolve("run.out");
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            Process run = launcher(out, "run", "--web-port", "0", "--queues", "orders", "--bucket", "lake",
                    "--endpoint", dir.toUri().toString(), "--queen-url", broker.url().toString(), "--sink", "sigterm",
                    "--instance", "sigterm-itcase", "--lease-ttl-ms", "1000");

            assertStopsCleanlyOnSigterm(run, out, "queen-lake stopped");
        }
    }

    @Test
    void demoStopsOnSigtermAndExitsZero() throws Exception {
        Path out = dir.resolve("demo.out");
        Process demo = launcher(out, "demo", "--web-port", "0", "--broker-port", "0", "--dir",
                dir.resolve("demo").toString(), "--window-ms", "1000");

        assertStopsCleanlyOnSigterm(demo, out, "demo stopped; the lake stays in " + dir.resolve("demo").toAbsolutePath());
    }

    private static void assertStopsCleanlyOnSigterm(Process process, Path out, String stoppedLine) throws Exception {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STARTS_WITHIN_S);
            while (!read(out).contains("Ctrl-C to stop")) {
                assertThat(process.isAlive()).as("the launcher is alive; it printed:\n%s", read(out)).isTrue();
                assertThat(System.nanoTime()).as("the launcher is up within %d s; it printed:\n%s", STARTS_WITHIN_S,
                        read(out)).isLessThan(deadline);
                Thread.sleep(200);
            }
            process.destroy(); // SIGTERM

            assertThat(process.waitFor(STOPS_WITHIN_S, TimeUnit.SECONDS)).as("stopped within %d s", STOPS_WITHIN_S)
                    .isTrue();
            assertThat(process.exitValue()).as("exit code; it printed:\n%s", read(out)).isZero();
            assertThat(read(out)).contains("on SIGTERM...").contains(stoppedLine);
        } finally {
            process.destroyForcibly();
        }
    }

    /** The launcher as {@code ./queen-lake} starts it, on this test's class path; stdout and stderr to {@code out}. */
    private static Process launcher(Path out, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m", "-Dlog4j.configurationFile=src/main/launcher/log4j2-cli.properties",
                "--add-opens", "java.base/java.util=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }

    private static String read(Path out) throws IOException {
        return Files.exists(out) ? Files.readString(out) : "";
    }
}
