package io.queenlake.format.manifest;

import io.queenlake.format.jsonl.JsonStringEscaper;
import io.queenlake.format.model.Micros;
import java.nio.charset.StandardCharsets;

/**
 * Compact JSON in a fixed field order, strings escaped exactly as serde_json writes them (so a
 * document's bytes match the reference's for the same values). Owns no I/O.
 */
final class JsonOut {

    private final StringBuilder sb = new StringBuilder(256);
    private boolean needComma;

    JsonOut beginObject() {
        comma();
        sb.append('{');
        needComma = false;
        return this;
    }

    JsonOut endObject() {
        sb.append('}');
        needComma = true;
        return this;
    }

    JsonOut beginArray() {
        comma();
        sb.append('[');
        needComma = false;
        return this;
    }

    JsonOut endArray() {
        sb.append(']');
        needComma = true;
        return this;
    }

    JsonOut name(String name) {
        comma();
        sb.append(JsonStringEscaper.quoteToString(name)).append(':');
        needComma = false;
        return this;
    }

    JsonOut value(String s) {
        comma();
        sb.append(JsonStringEscaper.quoteToString(s));
        needComma = true;
        return this;
    }

    JsonOut value(long v) {
        comma();
        sb.append(v);
        needComma = true;
        return this;
    }

    JsonOut stamp(long micros) {
        return value(Micros.render(micros));
    }

    JsonOut field(String name, String v) {
        return name(name).value(v);
    }

    JsonOut field(String name, long v) {
        return name(name).value(v);
    }

    private void comma() {
        if (needComma) {
            sb.append(',');
        }
    }

    byte[] toBytes() {
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
