package io.queenlake.format.jsonl;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reusable, growable byte buffer that JSONL lines are built into before they go to the
 * compressor in large chunks. Owns no stream; the caller drains it.
 */
final class LineBuffer {

    byte[] bytes;
    int size;

    LineBuffer(int capacity) {
        bytes = new byte[capacity];
    }

    /** Makes room for {@code n} more bytes. */
    void ensure(int n) {
        if (size + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
        }
    }

    void put(byte b) {
        ensure(1);
        bytes[size++] = b;
    }

    void put(byte[] src) {
        put(src, 0, src.length);
    }

    void put(byte[] src, int off, int len) {
        ensure(len);
        System.arraycopy(src, off, bytes, size, len);
        size += len;
    }

    /** Writes a decimal long. */
    void putLong(long v) {
        if (v == Long.MIN_VALUE) {
            put(Long.toString(v).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            return;
        }
        ensure(20);
        if (v < 0) {
            bytes[size++] = '-';
            v = -v;
        }
        int len = 1;
        for (long t = v; t >= 10; t /= 10) {
            len++;
        }
        int end = size + len;
        for (int i = end - 1; i >= size; i--) {
            bytes[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        size = end;
    }

    void drainTo(OutputStream out) throws IOException {
        if (size > 0) {
            out.write(bytes, 0, size);
            size = 0;
        }
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }
}
