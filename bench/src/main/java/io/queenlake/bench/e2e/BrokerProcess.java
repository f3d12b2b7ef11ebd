package io.queenlake.bench.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The dev broker the runs read from, in a JVM of its own, as a real broker is a service of its own.
 * In the benchmark's JVM its corpus (gigabytes of live objects) was in the heap every concurrent GC
 * cycle marks, and the pipelines that keep records alive longest (queen-lake's open windows)
 * started those cycles, so the broker's heap was charged to them (RESULTS). Its CPU time counts in
 * every run ({@link #cpuNanos()}).
 */
final class BrokerProcess implements AutoCloseable {

    private static final String LISTENING = "dev broker listening on ";
    private static final Duration STARTUP = Duration.ofMinutes(5); // it replays the kept corpora first

    private final Process process;
    private final URI url;

    private BrokerProcess(Process process, URI url) {
        this.process = process;
        this.url = url;
    }

    /** Starts the broker on {@code dataDir} (6 GB heap, pre-touched; its GC log and stderr beside the dir). */
    static BrokerProcess start(Path dataDir) throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(List.of(java, "-Xms6g", "-Xmx6g", "-XX:+AlwaysPreTouch",
                        "-Xlog:gc:file=" + dataDir.resolveSibling("broker-gc.log"), "-cp", System.getProperty("java.class.path"),
                        "io.queenlake.job.cli.Main", "dev-broker", "--port", "0", "--data-dir", dataDir.toString()))
                .redirectError(dataDir.resolveSibling("broker-stderr.log").toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<URI> listening = CompletableFuture.supplyAsync(() -> awaitUrl(out));
        try {
            URI url = listening.get(STARTUP.toSeconds(), TimeUnit.SECONDS);
            Thread drain = new Thread(() -> drain(out), "e2e-broker-stdout");
            drain.setDaemon(true);
            drain.start();
            return new BrokerProcess(process, url);
        } catch (Exception | Error e) {
            stop(process);
            if (e instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            throw new IllegalStateException("the dev broker's JVM did not start listening within " + STARTUP
                    + " (" + e + "); see " + dataDir.resolveSibling("broker-stderr.log"), e);
        }
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the broker's own log lines: not the benchmark's
            }
        } catch (IOException closed) {
            // the broker stopped
        }
    }

    private static URI awaitUrl(BufferedReader out) {
        try {
            for (String line; (line = out.readLine()) != null; ) {
                int at = line.indexOf(LISTENING);
                if (at >= 0) {
                    String rest = line.substring(at + LISTENING.length()).strip();
                    int space = rest.indexOf(' ');
                    return URI.create(space < 0 ? rest : rest.substring(0, space));
                }
            }
            throw new IllegalStateException("the dev broker's JVM ended before it listened");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    URI url() {
        return url;
    }

    /** CPU time the broker's JVM has used so far. */
    long cpuNanos() {
        if (!process.isAlive()) {
            throw new IllegalStateException("the dev broker's JVM has stopped (exit " + process.exitValue()
                    + "): its CPU time is unknown, so no figure of this run is; see broker-stderr.log in the data dir");
        }
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElseThrow(() ->
                new IllegalStateException("this platform does not tell a child process's CPU time, which every run counts"));
    }

    String describe() {
        return "dev broker in its own JVM (pid " + process.pid() + ", 6 GB heap, GC log in broker-gc.log)";
    }

    @Override
    public void close() throws InterruptedException {
        stop(process);
    }
}
