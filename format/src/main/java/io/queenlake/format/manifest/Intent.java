package io.queenlake.format.manifest;

import io.queenlake.format.model.Layout;
import java.util.Objects;
import java.util.Optional;

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

    /**
     * Whether this intent is open after {@code pointer} (empty: nothing committed yet): it names the
     * window right after the pointer's and starts at or after the pointer's {@code tEnd}. Such a
     * window was being committed when its writer stopped, and is finished before any other.
     */
    public boolean isOpenAfter(Optional<Committed> pointer) {
        long committedK = pointer.map(Committed::k).orElse(0L);
        long committedEnd = pointer.map(Committed::tEnd).orElse(Long.MIN_VALUE);
        return k == committedK + 1 && tStart >= committedEnd;
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
