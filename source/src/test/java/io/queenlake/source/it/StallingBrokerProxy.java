package io.queenlake.source.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.ToLongBiFunction;

/**
 * An HTTP proxy in front of the dev broker that holds some answers back, as a broker stalled in
 * garbage collection does: {@code stall} gets each call's path and body and says how many
 * milliseconds to hold the broker's answer before passing it on; an optional {@code rewrite} gets
 * each call's path, body and the broker's answer and says what to pass on instead (a broker whose
 * answers carry errors). Everything else goes through as is.
 */
final class StallingBrokerProxy implements AutoCloseable {

    /** Headers java.net.http sets itself, and hop-by-hop ones the answer must not copy. */
    private static final Set<String> NOT_COPIED =
            Set.of("connection", "content-length", "expect", "host", "upgrade", "transfer-encoding", "keep-alive", "date");

    private final URI broker;
    private final ToLongBiFunction<String, String> stall;
    private final Rewrite rewrite;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "stalling-broker-proxy");
        t.setDaemon(true);
        return t;
    });
    private final HttpServer server;

    /** What the proxy passes on for one answer of the broker; {@code answer} itself to change nothing. */
    @FunctionalInterface
    interface Rewrite {
        byte[] answer(String path, String body, byte[] answer);
    }

    StallingBrokerProxy(URI broker, ToLongBiFunction<String, String> stall) throws IOException {
        this(broker, stall, (path, body, answer) -> answer);
    }

    StallingBrokerProxy(URI broker, ToLongBiFunction<String, String> stall, Rewrite rewrite) throws IOException {
        this.broker = broker;
        this.stall = stall;
        this.rewrite = rewrite;
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void forward(HttpExchange call) throws IOException {
        try (call) {
            byte[] body;
            try (InputStream in = call.getRequestBody()) {
                body = in.readAllBytes();
            }
            String path = call.getRequestURI().toString();
            HttpRequest.Builder request = HttpRequest.newBuilder(broker.resolve(path))
                    .method(call.getRequestMethod(), body.length == 0
                            ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> h : call.getRequestHeaders().entrySet()) {
                if (!NOT_COPIED.contains(h.getKey().toLowerCase())) {
                    h.getValue().forEach(v -> request.header(h.getKey(), v));
                }
            }
            HttpResponse<byte[]> answer;
            try {
                answer = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
                long holdMs = stall.applyAsLong(path, new String(body, StandardCharsets.UTF_8));
                if (holdMs > 0) {
                    Thread.sleep(holdMs);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                call.sendResponseHeaders(503, -1);
                return;
            }
            answer.headers().map().forEach((name, values) -> {
                if (!NOT_COPIED.contains(name.toLowerCase()) && !name.startsWith(":")) {
                    call.getResponseHeaders().put(name, values);
                }
            });
            byte[] out = answer.statusCode() / 100 == 2
                    ? rewrite.answer(path, new String(body, StandardCharsets.UTF_8), answer.body())
                    : answer.body();
            call.sendResponseHeaders(answer.statusCode(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                try (OutputStream os = call.getResponseBody()) {
                    os.write(out);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
