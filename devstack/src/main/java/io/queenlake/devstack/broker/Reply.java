package io.queenlake.devstack.broker;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The answer to one exchange. The body is rendered into a buffer reused by the serving thread;
 * an answer that fits is sent with its length, a larger one streams out chunked as the buffer fills,
 * so a 100 MB fetch answer costs one 256 KiB buffer.
 */
final class Reply {

    private static final int BUFFER_BYTES = 256 * 1024;
    private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[BUFFER_BYTES]);

    private final HttpExchange exchange;
    private int status = 200;
    private String contentType = "application/json";
    private boolean started;
    private JsonOut out;

    Reply(HttpExchange exchange) {
        this.exchange = exchange;
    }

    /** Starts (or restarts, if nothing went out yet) a JSON body with {@code status}. */
    JsonOut json(int status) {
        return body(status, "application/json");
    }

    JsonOut body(int status, String contentType) {
        this.contentType = contentType;
        if (started) {
            throw new IllegalStateException("the answer has already started streaming");
        }
        this.status = status;
        this.out = new JsonOut(BUFFERS.get(), this::drain);
        out.reset();
        return out;
    }

    boolean started() {
        return started;
    }

    void header(String name, String value) {
        exchange.getResponseHeaders().set(name, value);
    }

    void error(WireError e) throws IOException {
        e.renderTo(json(e.status()));
        send();
    }

    void send() throws IOException {
        OutputStream body = exchange.getResponseBody();
        if (!started) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, out.length());
            body.write(out.buffer(), 0, out.length());
            started = true;
        } else {
            out.flush();
        }
        body.close();
    }

    private void drain(byte[] bytes, int offset, int length) throws IOException {
        if (!started) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, 0);
            started = true;
        }
        exchange.getResponseBody().write(bytes, offset, length);
    }
}
