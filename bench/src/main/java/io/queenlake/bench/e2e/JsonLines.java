package io.queenlake.bench.e2e;

import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The FileSink peer's JSON lines, built as a competent Flink user builds them: each line assembled
 * in a buffer of its own (no per-byte stream calls, no locks) and handed to the compressor in large
 * writes. A line has the fields of a lake line ({@code partition, offset, transactionId, ts,
 * payload}; the stamp as epoch microseconds, the payload verbatim, it is JSON already).
 */
final class JsonLines {

    private static final byte[] PARTITION = "{\"partition\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OFFSET = ",\"offset\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSACTION = ",\"transactionId\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TS = ",\"ts\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAYLOAD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** The fixed part of a line: the five field names, two quotes per string, the closing brace and newline. */
    private static final int FIXED = PARTITION.length + OFFSET.length + TRANSACTION.length + TS.length + PAYLOAD.length + 6;

    private final OutputStream out;
    private byte[] buf;
    private int len;

    JsonLines(OutputStream out, int bufferBytes) {
        this.out = out;
        this.buf = new byte[bufferBytes];
    }

    void write(LogRecord r) throws IOException {
        byte[] partition = r.partition().getBytes(StandardCharsets.UTF_8);
        byte[] transaction = r.transactionId().getBytes(StandardCharsets.UTF_8);
        byte[] payload = r.payload().length == 0 ? NULL : r.payload();
        // An escaped byte takes at most 6 (a control character as backslash, u and four hex digits); a long at most 20.
        reserve(FIXED + 6 * (partition.length + transaction.length) + 40 + payload.length);
        put(PARTITION);
        string(partition);
        put(OFFSET);
        number(r.offset());
        put(TRANSACTION);
        string(transaction);
        put(TS);
        number(r.tsMicros());
        put(PAYLOAD);
        put(payload);
        buf[len++] = '}';
        buf[len++] = '\n';
    }

    /** Hands the buffered lines to the stream. */
    void flush() throws IOException {
        if (len > 0) {
            out.write(buf, 0, len);
            len = 0;
        }
    }

    private void reserve(int bytes) throws IOException {
        if (len + bytes > buf.length) {
            flush();
            if (bytes > buf.length) {
                buf = new byte[bytes]; // a line larger than the buffer: rare, so grow rather than split it
            }
        }
    }

    private void put(byte[] b) {
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    /** A JSON string: quotes, backslashes and control characters escaped, the rest copied. */
    private void string(byte[] utf8) {
        buf[len++] = '"';
        int plain = 0;
        while (plain < utf8.length && !escaped(utf8[plain])) {
            plain++;
        }
        System.arraycopy(utf8, 0, buf, len, plain);
        len += plain;
        for (int i = plain; i < utf8.length; i++) {
            byte b = utf8[i];
            if (b == '"' || b == '\\') {
                buf[len++] = '\\';
                buf[len++] = b;
            } else if (b >= 0 && b < 0x20) {
                buf[len++] = '\\';
                buf[len++] = 'u';
                buf[len++] = '0';
                buf[len++] = '0';
                buf[len++] = HEX[b >> 4];
                buf[len++] = HEX[b & 0xf];
            } else {
                buf[len++] = b;
            }
        }
        buf[len++] = '"';
    }

    private static boolean escaped(byte b) {
        return b == '"' || b == '\\' || (b >= 0 && b < 0x20);
    }

    /** The decimal digits of {@code v}, as {@link Long#toString(long)} writes them. */
    private void number(long v) {
        if (v == Long.MIN_VALUE) {
            put(Long.toString(v).getBytes(StandardCharsets.US_ASCII));
            return;
        }
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = len + digits - 1; i >= len; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        len += digits;
    }
}
