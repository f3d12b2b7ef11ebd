package io.queenlake.format.window;

import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import java.util.Objects;

/**
 * Every tunable of the deterministic writer in one pinned value: the format and its codec, layout,
 * alignment and the size-cut target. Compression levels, Parquet page and row-group sizes are
 * fixed by the encoders themselves, so two writers with equal settings write equal bytes.
 * {@link #describe()} is the writer string of intent and manifest.
 *
 * @param targetBytes the uncompressed weight at which a window is cut (see {@link SizeCut})
 */
public record WriterSettings(Format format, Layout layout, Align align, long targetBytes) {

    public static final long DEFAULT_TARGET_BYTES = 128L * 1024 * 1024;

    public WriterSettings {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(align, "align");
        if (targetBytes < 1) {
            throw new IllegalArgumentException("the size-cut target must be at least 1 byte, got " + targetBytes);
        }
    }

    /** The defaults: JSONL, zstd, merged, hour-aligned, 128 MiB. */
    public static WriterSettings defaults() {
        return new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED, Align.HOUR, DEFAULT_TARGET_BYTES);
    }

    /** The encoder these settings pin. */
    public ObjectEncoder encoder() {
        return format.encoder();
    }

    /** The writer string, e.g. {@code queen-lake/0.1.0 jsonl+zstd}. */
    public String describe() {
        return format.writer();
    }
}
