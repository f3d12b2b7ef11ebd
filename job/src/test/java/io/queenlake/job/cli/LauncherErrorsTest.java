package io.queenlake.job.cli;

import static io.queenlake.job.cli.Launched.launch;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures a user causes on the launcher's command line end in one line on stderr naming the option
 * and what to do, before (or instead of) anything starting: a state folder that is a file, a port
 * that is taken, a broker or S3 endpoint that refuses the connection or speaks TLS where the URL
 * says http. Driven through {@link Main} in-process.
 */
class LauncherErrorsTest {

    @TempDir
    static Path dir;

    /** {@code run} with settings that pass; the options checked here fail before the broker is asked. */
    private static String[] run(String... more) {
        String[] base = {"run", "--queues", "orders", "--bucket", "lake", "--endpoint", dir.toUri().toString(),
            "--queen-url", "http://127.0.0.1:1"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    private static void assertOneLine(Launched ran, int exit, String line) {
        assertThat(ran.exit()).as("exit code of %s", ran.err()).isEqualTo(exit);
        assertThat(ran.err()).isEqualTo(line + "\n");
    }

    @Test
    void aStateDirThatIsAFileIsOneLineNamingStateDir() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");

        assertOneLine(launch(run("--state-dir", file.toString())), 2, "queen-lake run: --state-dir " + file
                + " is a file, not a folder: name a folder for the retained checkpoints (it is created when missing)");
        assertOneLine(launch(run("--state-dir", file + "/state")), 2, "queen-lake run: --state-dir " + file
                + "/state lies inside " + file + ", which is a file, not a folder: name a folder for the retained"
                + " checkpoints (it is created when missing)");
    }

    @Test
    void aWebPortThatIsTakenIsOneLineNamingWebPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            String line = " is taken: something already listens on 127.0.0.1:" + port
                    + "; stop it or pick another port (0 picks a free one)";

            assertOneLine(launch(run("--web-port", Integer.toString(port))), 2, "queen-lake run: --web-port " + port + line);
            assertOneLine(launch("demo", "--web-port", Integer.toString(port), "--dir", dir.resolve("demo").toString()),
                    2, "queen-lake demo: --web-port " + port + line);
            assertOneLine(launch("demo", "--web-port", "0", "--broker-port", Integer.toString(port), "--dir",
                    dir.resolve("demo").toString()), 2, "queen-lake demo: --broker-port " + port + line);
        }
    }

    @Test
    void aRefusedS3EndpointIsOneLineNamingEndpointWithinSeconds() throws Exception {
        int port = freePort();
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            long start = System.nanoTime();
            Launched ran = launch("run", "--queues", "orders", "--bucket", "lake", "--endpoint",
                    "http://127.0.0.1:" + port, "--path-style", "true", "--access-key", "k", "--secret-key", "s",
                    "--queen-url", broker.url().toString());

            assertOneLine(ran, 1, "queen-lake run: the S3 endpoint http://127.0.0.1:" + port + " refused the connection"
                    + " (nothing listens on 127.0.0.1:" + port + "): check the host and port in QUEEN_S3_ENDPOINT"
                    + " (--endpoint) and that the server is up.");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        }
    }

    @Test
    void aBrokerUrlWithHttpOnAPortThatHangsUpLikeTlsIsOneLineSayingHttps() throws Exception {
        try (ServerSocket tls = new ServerSocket(0, 4, InetAddress.getByName("127.0.0.1"))) {
            Thread hangUp = new Thread(() -> {
                while (!tls.isClosed()) {
                    try (Socket s = tls.accept()) {
                        s.getInputStream().read(new byte[256]); // a TLS server drops what is not a ClientHello
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            hangUp.setDaemon(true);
            hangUp.start();
            String url = "http://127.0.0.1:" + tls.getLocalPort();

            assertOneLine(launch("run", "--queues", "orders", "--bucket", "lake", "--endpoint", dir.toUri().toString(),
                    "--queen-url", url), 1, "queen-lake run: the broker at " + url + " closed the connection on 127.0.0.1:"
                    + tls.getLocalPort() + " without an HTTP answer, as a TLS port does: write "
                    + url.replace("http:", "https:") + " in QUEEN_URL (--queen-url).");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return free.getLocalPort();
        }
    }
}
