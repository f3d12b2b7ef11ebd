package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.ScriptedBroker.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The start probe's reachability check names in seconds what the clients behind it would retry for
 * a minute: a refused connection, and TLS on one side only.
 */
class EndpointCheckTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aPortNobodyListensOnIsARefusedConnection() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        long start = System.nanoTime();
        EndpointCheck.Problem problem = EndpointCheck.problem(URI.create("http://127.0.0.1:" + port), TIMEOUT).orElseThrow();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(TIMEOUT);
        assertThat(problem.sentence("the S3 endpoint http://127.0.0.1:" + port, "QUEEN_S3_ENDPOINT"))
                .isEqualTo("the S3 endpoint http://127.0.0.1:" + port + " refused the connection (nothing listens on"
                        + " 127.0.0.1:" + port + "): check the host and port in QUEEN_S3_ENDPOINT and that the server is up.");
    }

    @Test
    void aPlainHttpServerPassesAsHttpAndIsNamedAsPlainWhenTheUrlSaysHttps() throws Exception {
        try (ScriptedBroker http = new ScriptedBroker()) {
            http.always(call -> Reply.json(200, "{}"));
            URI plain = URI.create(http.url());
            assertThat(EndpointCheck.problem(plain, TIMEOUT)).isEmpty();

            URI tls = URI.create(http.url().replaceFirst("^http:", "https:"));
            EndpointCheck.Problem problem = EndpointCheck.problem(tls, TIMEOUT).orElseThrow();
            assertThat(problem.otherScheme()).contains(plain);
            assertThat(problem.sentence("the broker at " + tls, "QUEEN_URL"))
                    .startsWith("the broker at " + tls + " ")
                    .endsWith(": write " + plain + " in QUEEN_URL.")
                    .containsAnyOf("does not speak TLS", "did not answer a TLS handshake");
        }
    }

    @Test
    void aServerAnsweringInTlsIsNamedAsTlsWhenTheUrlSaysHttp() throws Exception {
        // A TLS server answers bytes that are no ClientHello with an alert record.
        try (RawServer tls = new RawServer(socket -> answer(socket, new byte[] {0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46}))) {
            Optional<EndpointCheck.Problem> problem = EndpointCheck.problem(tls.url("http"), TIMEOUT);

            assertThat(problem).hasValueSatisfying(p -> assertThat(p.sentence("the S3 endpoint " + tls.url("http"), "X"))
                    .isEqualTo("the S3 endpoint " + tls.url("http") + " speaks TLS on 127.0.0.1:" + tls.port()
                            + ", not plain HTTP: write " + tls.url("https") + " in X."));
        }
    }

    @Test
    void aServerThatHangsUpOnAnHttpRequestIsNamedAsAPossibleTlsPort() throws Exception {
        try (RawServer closing = new RawServer(socket -> answer(socket, new byte[0]))) {
            EndpointCheck.Problem problem = EndpointCheck.problem(closing.url("http"), TIMEOUT).orElseThrow();

            assertThat(problem.what()).contains("without an HTTP answer, as a TLS port does");
            assertThat(problem.otherScheme()).contains(closing.url("https"));
        }
    }

    private static void answer(Socket socket, byte[] bytes) {
        try (socket) {
            InputStream in = socket.getInputStream();
            in.read(new byte[512]);
            socket.getOutputStream().write(bytes);
        } catch (IOException ignored) {
            // the check has what it needs
        }
    }

    /** A TCP server on 127.0.0.1 that hands every connection to {@code handler}. */
    private static final class RawServer implements AutoCloseable {
        private final ServerSocket server;

        RawServer(Consumer<Socket> handler) throws IOException {
            server = new ServerSocket(0, 8, InetAddress.getByName("127.0.0.1"));
            Thread accept = new Thread(() -> {
                while (!server.isClosed()) {
                    try {
                        handler.accept(server.accept());
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "raw-server");
            accept.setDaemon(true);
            accept.start();
        }

        int port() {
            return server.getLocalPort();
        }

        URI url(String scheme) {
            return URI.create(scheme + "://127.0.0.1:" + port());
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
