package io.queenlake.broker.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A broker stand-in on 127.0.0.1 that answers each call with the next scripted reply and records
 * what the client sent. Replies can also be computed from the request, or break the connection.
 */
final class ScriptedBroker implements AutoCloseable {

    /** What the client sent in one call. */
    record Call(String method, String path, Map<String, List<String>> headers, String body, int clientPort) {
        String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** One scripted reply. */
    record Reply(int status, Map<String, String> headers, byte[] body, Mode mode) {
        enum Mode { WHOLE, SHORT_BY_HALF, HANG_UP }

        static Reply json(int status, String body) {
            return new Reply(status, Map.of("Content-Type", "application/json"), body.getBytes(StandardCharsets.UTF_8), Mode.WHOLE);
        }

        static Reply json(int status, String body, String header, String value) {
            return new Reply(status, Map.of("Content-Type", "application/json", header, value),
                    body.getBytes(StandardCharsets.UTF_8), Mode.WHOLE);
        }

        /** Declares the whole length but sends only the first half, then closes. */
        static Reply cutShort(String body) {
            return new Reply(200, Map.of("Content-Type", "application/json"), body.getBytes(StandardCharsets.UTF_8), Mode.SHORT_BY_HALF);
        }

        /** Closes the connection without any answer. */
        static Reply hangUp() {
            return new Reply(0, Map.of(), new byte[0], Mode.HANG_UP);
        }
    }

    private final HttpServer server;
    private final ConcurrentLinkedQueue<Function<Call, Reply>> script = new ConcurrentLinkedQueue<>();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private volatile Function<Call, Reply> fallback;

    ScriptedBroker() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "scripted-broker");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
        fallback = call -> Reply.json(500, "{\"error\":\"nothing scripted for this call\"}");
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    HttpQueenClient client() {
        return HttpQueenClient.builder().baseUrl(url()).token("sk_test").build();
    }

    ScriptedBroker then(Reply reply) {
        script.add(call -> reply);
        return this;
    }

    ScriptedBroker then(Function<Call, Reply> reply) {
        script.add(reply);
        return this;
    }

    /** Answers every call not scripted with {@code reply}. */
    ScriptedBroker always(Function<Call, Reply> reply) {
        fallback = reply;
        return this;
    }

    List<Call> calls() {
        return calls;
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] requestBody = exchange.getRequestBody().readAllBytes();
        Call call = new Call(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                Map.copyOf(exchange.getRequestHeaders()), new String(requestBody, StandardCharsets.UTF_8),
                exchange.getRemoteAddress().getPort());
        calls.add(call);
        Function<Call, Reply> next = script.poll();
        Reply reply = (next == null ? fallback : next).apply(call);
        if (reply.mode() == Reply.Mode.HANG_UP) {
            exchange.close();
            return;
        }
        reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            int length = reply.mode() == Reply.Mode.SHORT_BY_HALF ? reply.body().length / 2 : reply.body().length;
            out.write(reply.body(), 0, length);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
