package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The answer to one exchange. A JSON body is rendered by Jackson's generator straight into a buffer
 * reused by the serving thread; an answer that fits is sent with its length, a larger one streams
 * out chunked as the buffer fills, so a 100 MB fetch answer costs one 256 KiB buffer.
 */
final class Reply {

    private static final int BUFFER_BYTES = 256 * 1024;
    private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[BUFFER_BYTES]);

    private final HttpExchange exchange;
    private final Body body = new Body();
    private int status = 200;
    private boolean started;
    /** Set while the generator flushes at {@link #send}: its last hand-over, the whole answer if none came before. */
    private boolean finishing;
    private JsonGenerator json;

    Reply(HttpExchange exchange) {
        this.exchange = exchange;
    }

    /** Starts (or restarts, if nothing went out yet) a JSON body with {@code status}. */
    JsonGenerator json(int status) {
        if (started) {
            throw new IllegalStateException("the answer has already started streaming");
        }
        this.status = status;
        this.json = AnswerJson.FACTORY.over(BUFFERS.get(), body);
        return json;
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

    /** Ends the JSON body: what the generator still holds goes out, with its length if nothing went before. */
    void send() throws IOException {
        finishing = true;
        json.close();
        if (!started) {
            start("application/json", 0); // an empty body: nothing was rendered
        }
        exchange.getResponseBody().close();
    }

    /** Sends a whole non-JSON body with its length. */
    void text(int status, String contentType, byte[] text) throws IOException {
        this.status = status;
        start(contentType, text.length == 0 ? -1 : text.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(text);
        }
    }

    private void start(String contentType, long length) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, length);
        started = true;
    }

    /** Where the generator hands its buffer: a first hand-over before {@link #send} means the answer outgrew it. */
    private final class Body extends OutputStream {

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (!started) {
                start("application/json", finishing ? length : 0);
            }
            exchange.getResponseBody().write(bytes, offset, length);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }
    }
}
