package io.queenlake.source.reader;

import com.sun.net.httpserver.HttpServer;
import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.QueenClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A stand-in broker on loopback that answers every call with one error status (and
 * {@code Retry-After} when given): the failures the dev broker never gives, reaching the reader
 * through the real HTTP client so it sees the exceptions a real broker causes.
 */
final class RefusingBroker implements AutoCloseable {

    private final HttpServer server;

    RefusingBroker(int status, String retryAfter) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", call -> {
            try (call; InputStream in = call.getRequestBody()) {
                in.readAllBytes();
                byte[] body = "{\"error\":\"scripted refusal\"}".getBytes(StandardCharsets.UTF_8);
                if (retryAfter != null) {
                    call.getResponseHeaders().set("Retry-After", retryAfter);
                }
                call.getResponseHeaders().set("Content-Type", "application/json");
                call.sendResponseHeaders(status, body.length);
                try (OutputStream out = call.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        server.start();
    }

    QueenClient client() {
        return HttpQueenClient.builder().baseUrl("http://127.0.0.1:" + server.getAddress().getPort()).build();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
