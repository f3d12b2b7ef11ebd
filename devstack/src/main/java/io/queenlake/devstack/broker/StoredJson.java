package io.queenlake.devstack.broker;

import com.fasterxml.jackson.core.SerializableString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Stored JSON bytes (a payload, a KV value, a record rendered at append time) for
 * {@link com.fasterxml.jackson.core.JsonGenerator#writeRawValue(SerializableString)}: Jackson's UTF-8
 * generator copies them into its buffer when they fit ({@link #appendUnquotedUTF8}) and otherwise
 * writes this very array to its stream ({@link #asUnquotedUTF8}), so they are never decoded to text.
 * They are JSON already: the quoted forms (a JSON string of the text) have no use here.
 */
final class StoredJson implements SerializableString {

    private final byte[] utf8;

    StoredJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** The bytes themselves, not a copy: whoever holds a StoredJson does not change them. */
    byte[] bytes() {
        return utf8;
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (utf8.length > buffer.length - offset) {
            return -1;
        }
        System.arraycopy(utf8, 0, buffer, offset, utf8.length);
        return utf8.length;
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return utf8;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (utf8.length > buffer.remaining()) {
            return -1;
        }
        buffer.put(utf8);
        return utf8.length;
    }

    /** The text, decoded: for a generator writing chars, never on the answer path. */
    @Override
    public String getValue() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        String text = getValue();
        if (text.length() > buffer.length - offset) {
            return -1;
        }
        text.getChars(0, text.length(), buffer, offset);
        return text.length();
    }

    @Override
    public char[] asQuotedChars() {
        throw quoted();
    }

    @Override
    public byte[] asQuotedUTF8() {
        throw quoted();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        throw quoted();
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        throw quoted();
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) {
        throw quoted();
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        throw quoted();
    }

    @Override
    public String toString() {
        return getValue();
    }

    private static UnsupportedOperationException quoted() {
        return new UnsupportedOperationException("raw JSON is written as it is, never as a JSON string");
    }
}
