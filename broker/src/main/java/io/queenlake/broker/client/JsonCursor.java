package io.queenlake.broker.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * One streaming pass over an answer body, with the few reads the decoders need.
 *
 * <p>Owns the raw-value slicing: a payload or KV value is cut out of the body by the parser's
 * byte offsets and copied once, never parsed into a tree and printed again.
 */
final class JsonCursor implements AutoCloseable {

    /** Payloads are sliced, not interpreted, so no size limit of the parser should refuse them. */
    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNameLength(Integer.MAX_VALUE)
                    .maxNestingDepth(100_000)
                    .build())
            .build();


    private final byte[] body;
    private final JsonParser parser;

    JsonCursor(byte[] body) throws IOException {
        this.body = body;
        this.parser = FACTORY.createParser(body);
    }

    JsonToken next() throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            throw new WireFormatException("the body ended early");
        }
        return token;
    }

    JsonToken token() {
        return parser.currentToken();
    }

    /** Reads the next token and requires it to be {@code expected}. */
    void expectNext(JsonToken expected, String what) throws IOException {
        JsonToken token = next();
        if (token != expected) {
            throw new WireFormatException(what + " should be " + expected + " but is " + token);
        }
    }

    /** Inside an object: the next field name, or null at the object's end. */
    String nextField() throws IOException {
        JsonToken token = next();
        if (token == JsonToken.END_OBJECT) {
            return null;
        }
        if (token != JsonToken.FIELD_NAME) {
            throw new WireFormatException("expected a field name but found " + token);
        }
        String name = parser.currentName();
        next();
        return name;
    }

    /** At an array start: true while there is one more element (the cursor is then on its first token). */
    boolean nextElement() throws IOException {
        return next() != JsonToken.END_ARRAY;
    }

    void requireArray(String what) {
        if (token() != JsonToken.START_ARRAY) {
            throw new WireFormatException(what + " should be an array but is " + token());
        }
    }

    void requireObject(String what) {
        if (token() != JsonToken.START_OBJECT) {
            throw new WireFormatException(what + " should be an object but is " + token());
        }
    }

    boolean isNull() {
        return token() == JsonToken.VALUE_NULL;
    }

    long longValue(String what) throws IOException {
        if (token() != JsonToken.VALUE_NUMBER_INT) {
            throw new WireFormatException(what + " should be an integer but is " + token());
        }
        return parser.getLongValue();
    }

    /** An integer, or empty for a JSON null. */
    OptionalLong optionalLong(String what) throws IOException {
        return isNull() ? OptionalLong.empty() : OptionalLong.of(longValue(what));
    }

    boolean booleanValue(String what) {
        JsonToken token = token();
        if (token == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (token == JsonToken.VALUE_FALSE) {
            return false;
        }
        throw new WireFormatException(what + " should be a boolean but is " + token);
    }

    String text(String what) throws IOException {
        if (token() != JsonToken.VALUE_STRING) {
            throw new WireFormatException(what + " should be a string but is " + token());
        }
        return parser.getText();
    }

    /** A string, or null for a JSON null. */
    String optionalText(String what) throws IOException {
        return isNull() ? null : text(what);
    }

    /** A broker timestamp string as micros, read from the parser's buffer without a String. */
    long micros(String what) throws IOException {
        if (token() != JsonToken.VALUE_STRING) {
            throw new WireFormatException(what + " should be a timestamp string but is " + token());
        }
        try {
            return BrokerTime.parseMicros(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
        } catch (IllegalArgumentException e) {
            throw new WireFormatException(what + ": " + e.getMessage());
        }
    }

    OptionalLong optionalMicros(String what) throws IOException {
        return isNull() ? OptionalLong.empty() : OptionalLong.of(micros(what));
    }

    /**
     * The exact bytes of the value the cursor is on, copied once out of the body; leaves the
     * cursor on the value's last token.
     */
    byte[] rawValue() throws IOException {
        long start = parser.currentTokenLocation().getByteOffset();
        JsonToken token = token();
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            parser.skipChildren();
        } else {
            // Strings are tokenized lazily: finish the token so the location is past the quote.
            parser.finishToken();
        }
        long end = parser.currentLocation().getByteOffset();
        if (start < 0 || end > body.length || end <= start) {
            throw new WireFormatException("a raw value's bounds [" + start + ", " + end + ") fall outside the body");
        }
        byte[] copy = new byte[(int) (end - start)];
        System.arraycopy(body, (int) start, copy, 0, copy.length);
        return copy;
    }

    /**
     * A payload: its raw bytes, {@code null} included. Over HTTP a stored empty payload and a pushed
     * JSON {@code null} are both answered {@code null}; an HTTP push cannot carry an empty payload,
     * so the text {@code null} is what a producer sent, and the lake writes it as such (Parquet the
     * text {@code null}, as Queen's own sink does for a JSON null), never as an empty payload.
     */
    byte[] payload() throws IOException {
        return rawValue();
    }

    /** Skips the value the cursor is on (whole object or array). */
    void skipValue() throws IOException {
        parser.skipChildren();
    }

    /** Requires that nothing but whitespace follows the top-level value. */
    void requireEnd() throws IOException {
        JsonToken token = parser.nextToken();
        if (token != null) {
            throw new WireFormatException("unexpected " + token + " after the answer");
        }
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }
}
