package io.queenlake.broker.client;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One JSON value as text, kept byte for byte (a KV value, a push payload, a winner's value).
 *
 * <p>Never parsed into a tree: big integers, {@code 1E+400}, {@code -0}, key order and escapes
 * stay what the writer sent. The client does not check that the text is valid JSON before
 * sending it; the broker refuses a malformed body with a 400.
 */
public final class RawJson {

    /** The JSON literal {@code null}. */
    public static final RawJson NULL = new RawJson("null".getBytes(StandardCharsets.US_ASCII));

    private final byte[] utf8;

    private RawJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** Wraps JSON text, for example {@code {"k":1}} or {@code "a string"}. */
    public static RawJson of(String json) {
        if (json == null || json.isBlank()) {
            throw new IllegalArgumentException("a JSON value must not be empty; use RawJson.NULL for null");
        }
        return new RawJson(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Wraps UTF-8 JSON text; the array is copied. */
    public static RawJson ofUtf8(byte[] json) {
        if (json == null || json.length == 0) {
            throw new IllegalArgumentException("a JSON value must not be empty; use RawJson.NULL for null");
        }
        return new RawJson(json.clone());
    }

    /** Takes ownership of a slice the decoder already copied. */
    static RawJson owning(byte[] utf8) {
        return new RawJson(utf8);
    }

    /** A copy of the UTF-8 bytes. */
    public byte[] utf8() {
        return utf8.clone();
    }

    byte[] utf8Unsafe() {
        return utf8;
    }

    public String text() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    public boolean isNull() {
        return Arrays.equals(utf8, NULL.utf8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawJson other && Arrays.equals(utf8, other.utf8);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(utf8);
    }

    @Override
    public String toString() {
        return text();
    }
}
