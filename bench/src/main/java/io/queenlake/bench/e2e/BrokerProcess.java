package io.queenlake.bench.e2e;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
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
import java.util.concurrent.TimeoutException;

/**
 * The dev broker the runs read from: by default in a JVM of its own (as a real broker is its own
 * service), or in the benchmark's JVM ({@code broker=same-jvm}, the earlier passes' setup). In the
 * same JVM its corpus (gigabytes of live objects) is in the heap that every concurrent GC cycle
 * marks, and the pipelines that keep records alive longest (queen-lake's open windows) start those
 * cycles: the broker's heap would be charged to them. Its CPU time counts in every run either way.
 */
abstract class BrokerProcess implements AutoCloseable {

    private static final String LISTENING = "dev broker listening on ";

    abstract URI url();

    /** CPU time the broker has used outside this JVM so far (zero in the same JVM: counted with it). */
    abstract long cpuNanos();

    abstract String describe();

    static BrokerProcess start(Path dataDir, boolean ownJvm) throws IOException, InterruptedException, TimeoutException {
        return ownJvm ? Own.start(dataDir) : new Shared(DevBroker.start(DevBrokerOptions.builder().dataDir(dataDir).build()));
    }

    private static final class Shared extends BrokerProcess {
        private final DevBroker broker;

        Shared(DevBroker broker) {
            this.broker = broker;
        }

        @Override
        URI url() {
            return broker.url();
        }

        @Override
        long cpuNanos() {
            return 0;
        }

        @Override
        String describe() {
            return "dev broker in the benchmark's JVM";
        }

        @Override
        public void close() {
            broker.close();
        }
    }

    private static final class Own extends BrokerProcess {
        private static final Duration STARTUP = Duration.ofMinutes(5); // it replays the kept corpora first
        private final Process process;
        private final URI url;

        private Own(Process process, URI url) {
            this.process = process;
            this.url = url;
        }

        static Own start(Path dataDir) throws IOException, InterruptedException, TimeoutException {
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
                return new Own(process, url);
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

        @Override
        URI url() {
            return url;
        }

        @Override
        long cpuNanos() {
            if (!process.isAlive()) {
                throw new IllegalStateException("the dev broker's JVM has stopped (exit " + process.exitValue()
                        + "): its CPU time is unknown, so no figure of this run is; see broker-stderr.log in the data dir");
            }
            return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElseThrow(() ->
                    new IllegalStateException("this platform does not tell a child process's CPU time: run with broker=same-jvm"));
        }

        @Override
        String describe() {
            return "dev broker in its own JVM (pid " + process.pid() + ", 6 GB heap, GC log in broker-gc.log)";
        }

        @Override
        public void close() throws InterruptedException {
            stop(process);
        }
    }
}
