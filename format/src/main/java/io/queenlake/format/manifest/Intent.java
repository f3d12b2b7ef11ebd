package io.queenlake.format.manifest;

import io.queenlake.format.model.Layout;
import java.util.Objects;

/**
 * The KV document {@code s3:<sink>:<escQueue>:intent}: the window being committed and the writer
 * that builds it, so a redo can tell whether a found manifest is its own.
 */
public record Intent(long k, long tStart, long tEnd, String format, String compression, Layout layout, String writer) {

    public Intent {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(compression, "compression");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(writer, "writer");
    }

    public byte[] toJson() {
        return new JsonOut().beginObject()
                .field("k", k)
                .field("tStart", tStart)
                .field("tEnd", tEnd)
                .field("format", format)
                .field("compression", compression)
                .field("layout", layout.wireName())
                .field("writer", writer)
                .endObject().toBytes();
    }

    public static Intent fromJson(byte[] json) {
        JsonIn in = JsonIn.parse("intent", json);
        return new Intent(in.integer("k"), in.stamp("tStart"), in.stamp("tEnd"), in.string("format"),
                in.string("compression"), Layout.parse(in.string("layout")), in.string("writer"));
    }
}
