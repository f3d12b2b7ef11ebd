package io.queenlake.format.window;

import io.queenlake.format.codec.ObjectEncoder;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.jsonl.JsonlObjectEncoder;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.parquet.ParquetObjectEncoder;
import java.util.Locale;
import java.util.Objects;

/**
 * Every tunable of the deterministic writer in one pinned value: format, compression (JSONL) or
 * codec (Parquet), layout, alignment and the size-cut target. Compression levels, Parquet page
 * and row-group sizes are fixed by the encoders themselves, so two writers with equal settings
 * write equal bytes. {@link #describe()} is the writer string of intent and manifest.
 *
 * @param format {@code jsonl} or {@code parquet}
 * @param compression {@code zstd|gzip|none} for JSONL, the codec {@code zstd|snappy} for Parquet
 * @param targetBytes the uncompressed weight at which a window is cut (see {@link SizeCut})
 */
public record WriterSettings(String format, String compression, Layout layout, Align align, long targetBytes) {

    public static final long DEFAULT_TARGET_BYTES = 128L * 1024 * 1024;

    public WriterSettings {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(align, "align");
        format = format == null ? "" : format.strip().toLowerCase(Locale.ROOT);
        switch (format) {
            case "jsonl", "json", "ndjson" -> {
                format = "jsonl";
                compression = Compression.parse(compression).wireName();
            }
            case "parquet" -> {
                String codec = compression == null ? "" : compression.strip().toLowerCase(Locale.ROOT);
                if (!codec.equals("zstd") && !codec.equals("snappy")) {
                    throw new IllegalArgumentException("parquet codec '" + compression + "' is not one of zstd, snappy");
                }
                compression = codec;
            }
            default -> throw new IllegalArgumentException("format '" + format + "' is not one of jsonl, parquet");
        }
        if (targetBytes < 1) {
            throw new IllegalArgumentException("the size-cut target must be at least 1 byte, got " + targetBytes);
        }
    }

    /** The defaults: JSONL, zstd, merged, hour-aligned, 128 MiB. */
    public static WriterSettings defaults() {
        return jsonl(Compression.ZSTD, Layout.MERGED, Align.HOUR, DEFAULT_TARGET_BYTES);
    }

    public static WriterSettings jsonl(Compression compression, Layout layout, Align align, long targetBytes) {
        return new WriterSettings("jsonl", compression.wireName(), layout, align, targetBytes);
    }

    public static WriterSettings parquet(String codec, Layout layout, Align align, long targetBytes) {
        return new WriterSettings("parquet", codec, layout, align, targetBytes);
    }

    /** The encoder these settings pin. */
    public ObjectEncoder encoder() {
        if (format.equals("jsonl")) {
            return JsonlObjectEncoder.of(Compression.parse(compression));
        }
        return compression.equals("zstd") ? ParquetObjectEncoder.zstd() : ParquetObjectEncoder.snappy();
    }

    /** The writer string, e.g. {@code queen-lake/0.1.0 jsonl+zstd}. */
    public String describe() {
        return encoder().describe();
    }
}
