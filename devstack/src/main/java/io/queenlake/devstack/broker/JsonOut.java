package io.queenlake.devstack.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A JSON answer being rendered into a byte buffer. With a {@link Drain} the buffer keeps its size
 * and is handed to the drain whenever it fills (a large fetch answer streams out); without one it
 * grows. It never builds a tree: stored payloads are copied in as the bytes they were pushed as.
 */
final class JsonOut {

    /** Receives full buffers of a streamed answer. */
    interface Drain {
        void drain(byte[] bytes, int offset, int length) throws IOException;
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf;
    private int len;
    private final Drain drain;

    JsonOut(int capacity) {
        this(new byte[capacity], null);
    }

    JsonOut(byte[] buffer, Drain drain) {
        this.buf = buffer;
        this.drain = drain;
    }

    byte[] buffer() {
        return buf;
    }

    int length() {
        return len;
    }

    /** Empties the buffer, which stays allocated for the next answer. */
    void reset() {
        len = 0;
    }

    byte[] toByteArray() {
        return java.util.Arrays.copyOf(buf, len);
    }

    String asString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    JsonOut raw(byte b) {
        ensure(1);
        buf[len++] = b;
        return this;
    }

    JsonOut raw(byte[] bytes) {
        return raw(bytes, 0, bytes.length);
    }

    JsonOut raw(byte[] bytes, int offset, int length) {
        if (drain != null && length > buf.length) {
            flush();
            drainOut(bytes, offset, length);
            return this;
        }
        ensure(length);
        System.arraycopy(bytes, offset, buf, len, length);
        len += length;
        return this;
    }

    /** Appends text known to be plain ASCII with nothing to escape (field names, punctuation). */
    JsonOut ascii(String text) {
        int n = text.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) text.charAt(i);
        }
        return this;
    }

    /** Appends {@code "name":}. */
    JsonOut field(String name) {
        ensure(name.length() + 3);
        buf[len++] = '"';
        ascii(name);
        buf[len++] = '"';
        buf[len++] = ':';
        return this;
    }

    JsonOut number(long value) {
        ensure(20);
        if (value == Long.MIN_VALUE) {
            return ascii(Long.toString(value));
        }
        if (value < 0) {
            buf[len++] = '-';
            value = -value;
        }
        int digits = 1;
        for (long v = value; v >= 10; v /= 10) {
            digits++;
        }
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        len += digits;
        return this;
    }

    JsonOut bool(boolean value) {
        return ascii(value ? "true" : "false");
    }

    JsonOut nul() {
        return ascii("null");
    }

    JsonOut nullableNumber(Long value) {
        return value == null ? nul() : number(value);
    }

    JsonOut iso(long micros) {
        ensure(BrokerTime.ISO_LENGTH + 2);
        buf[len++] = '"';
        BrokerTime.renderIso(micros, buf, len);
        len += BrokerTime.ISO_LENGTH;
        buf[len++] = '"';
        return this;
    }

    /** A JSON string, or null for a null text. */
    JsonOut string(String text) {
        if (text == null) {
            return nul();
        }
        ensure(text.length() + 2);
        buf[len++] = '"';
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                ensure(1);
                buf[len++] = (byte) c;
            } else if (c < 0x80) {
                escape(c);
            } else {
                int end = i + 1;
                while (end < n && text.charAt(end) >= 0x80) {
                    end++;
                }
                byte[] utf8 = text.substring(i, end).getBytes(StandardCharsets.UTF_8);
                raw(utf8);
                i = end - 1;
            }
        }
        ensure(1);
        buf[len++] = '"';
        return this;
    }

    /** Hands whatever is buffered to the drain (a no-op without one). */
    void flush() {
        if (drain != null && len > 0) {
            drainOut(buf, 0, len);
            len = 0;
        }
    }

    private void escape(char c) {
        ensure(6);
        buf[len++] = '\\';
        switch (c) {
            case '"' -> buf[len++] = '"';
            case '\\' -> buf[len++] = '\\';
            case '\n' -> buf[len++] = 'n';
            case '\r' -> buf[len++] = 'r';
            case '\t' -> buf[len++] = 't';
            case '\b' -> buf[len++] = 'b';
            case '\f' -> buf[len++] = 'f';
            default -> {
                buf[len++] = 'u';
                buf[len++] = '0';
                buf[len++] = '0';
                buf[len++] = HEX[c >> 4];
                buf[len++] = HEX[c & 0xf];
            }
        }
    }

    private void ensure(int extra) {
        if (len + extra <= buf.length) {
            return;
        }
        if (drain != null && extra <= buf.length) {
            flush();
            return;
        }
        buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
    }

    private void drainOut(byte[] bytes, int offset, int length) {
        try {
            drain.drain(bytes, offset, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
