package io.queenlake.bench.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./queen-lake run} in a JVM of its own, started as the launcher's last line starts it (its
 * JVM flags, the class path {@code job/target/classes:job/target/lib/*}, the S3 plugin from
 * {@code job/target/flink-plugins} unless {@code FLINK_PLUGINS_DIR} says otherwise), but without
 * the launcher's build step, which would {@code mvn install}: build with
 * {@code mvn -o -B -q -pl bench -am package -DskipTests} first. So the job runs with the
 * configuration, parallelism and MiniCluster that command gives it; its memory is its own
 * ({@link #status}) and its web UI / REST API ({@link #web()}) on a free port. Its stdout and
 * stderr go to {@code job-stdout.log} and {@code job-stderr.log} in the run's folder. Stopped with
 * SIGTERM, as Ctrl-C stops the command: the job is cancelled cleanly.
 */
final class RunProcess implements AutoCloseable {

    private static final String WEB_UI = "web UI: ";
    private static final Duration STARTUP = Duration.ofMinutes(3);
    private static final Duration STOP = Duration.ofMinutes(2);

    private final Process process;
    private final URI web;
    private final long launchedMillis;
    private final Thread drain;

    private RunProcess(Process process, URI web, long launchedMillis, Thread drain) {
        this.process = process;
        this.web = web;
        this.launchedMillis = launchedMillis;
        this.drain = drain;
    }

    /** The launcher's command line ({@code queen-lake}'s {@code exec java ...}) for {@code run} with these arguments. */
    static List<String> command(Path repo, List<String> javaOpts, List<String> runArgs) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(javaOpts);
        cmd.addAll(List.of("-Dsun.net.httpserver.nodelay=true",
                "-Dlog4j.configurationFile=" + repo.resolve("job/src/main/launcher/log4j2-cli.properties"),
                "--add-opens", "java.base/java.util=ALL-UNNAMED", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", repo.resolve("job/target/classes") + ":" + repo.resolve("job/target/lib") + "/*",
                "io.queenlake.job.cli.Main", "run"));
        cmd.addAll(runArgs);
        return cmd;
    }

    /** Starts the command, and returns once it prints its web UI's address (the job is submitted by then). */
    static RunProcess start(List<String> command, Path logDir) throws IOException, InterruptedException {
        if (!Files.isDirectory(Path.of(command.get(command.indexOf("-cp") + 1).split(":")[0]))) {
            throw new IllegalStateException("job/target/classes is missing: build with"
                    + " 'mvn -o -B -q -pl bench -am package -DskipTests' and run from the repository root (or give repo=)");
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(logDir.resolve("job-stderr.log").toFile());
        // The job's settings are the arguments alone, as the bench prints them: none from this shell.
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> name.startsWith("QUEEN_"));
        long launched = System.currentTimeMillis();
        Process process = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        PrintWriter log = new PrintWriter(Files.newBufferedWriter(logDir.resolve("job-stdout.log")), true);
        CompletableFuture<URI> web = CompletableFuture.supplyAsync(() -> awaitWebUi(out, log));
        try {
            URI url = web.get(STARTUP.toSeconds(), TimeUnit.SECONDS);
            Thread drain = new Thread(() -> copy(out, log), "scale-job-stdout");
            drain.setDaemon(true);
            drain.start();
            return new RunProcess(process, url, launched, drain);
        } catch (Exception e) {
            process.destroyForcibly();
            log.close();
            throw new IllegalStateException("./queen-lake run did not print its web UI within " + STARTUP + " (" + e
                    + "); see " + logDir.resolve("job-stderr.log") + " and job-stdout.log", e);
        }
    }

    private static URI awaitWebUi(BufferedReader out, PrintWriter log) {
        try {
            for (String line; (line = out.readLine()) != null; ) {
                log.println(line);
                int at = line.indexOf(WEB_UI);
                if (at >= 0) {
                    return URI.create(line.substring(at + WEB_UI.length()).strip());
                }
            }
            throw new IllegalStateException("./queen-lake run ended before it printed its web UI");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void copy(BufferedReader out, PrintWriter log) {
        try (log) {
            for (String line; (line = out.readLine()) != null; ) {
                log.println(line);
            }
        } catch (IOException closed) {
            // the job's JVM ended
        }
    }

    /** The Flink web UI and REST API of the job's MiniCluster. */
    URI web() {
        return web;
    }

    long launchedMillis() {
        return launchedMillis;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    String exit() {
        return process.isAlive() ? "running" : "exited " + process.exitValue();
    }

    /** CPU time the job's JVM has used so far, in ns. */
    long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    /** A field of the job JVM's {@code /proc/<pid>/status} in KiB ({@code VmRSS}, {@code VmHWM}: the peak RSS), or -1. */
    long status(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException gone) {
            // the process ended, or not Linux
        }
        return -1;
    }

    /** SIGTERM, as Ctrl-C: the command cancels the job and exits; forcibly after {@link #STOP}. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP.toSeconds(), TimeUnit.SECONDS)) {
            System.out.println("  ./queen-lake run did not stop within " + STOP + " of SIGTERM: killed");
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
        drain.join(10_000); // the command's last lines, into job-stdout.log
    }
}
