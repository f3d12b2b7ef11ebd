package io.queenlake.bench.e2e;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;

/** The ways one corpus is carried from the broker to the bucket, in the order they run. */
enum Peer {
    CEILING("ceiling", "QueenSource -> discarding sink"),
    LAKE_JSONL("lake-jsonl", "queen-lake JSONL+zstd"),
    FILESINK_JSONL("filesink-jsonl", "FileSink row JSON lines"),
    LAKE_PARQUET("lake-parquet", "queen-lake Parquet+zstd"),
    FILESINK_PARQUET("filesink-parquet", "FileSink Parquet+zstd (RowData)"),
    /** Diagnostic, not in the default set: the lake's graph with Flink's watermark alignment off. */
    LAKE_JSONL_UNALIGNED("lake-jsonl-unaligned", "queen-lake JSONL+zstd, alignment off (diagnostic)"),
    /**
     * Diagnostic, not in the default set: the lake with {@code compression=none}, the same bytes FileSink
     * row JSON writes per record, so the two differ only in what the lake adds (windows, order, keys, commits).
     */
    LAKE_JSONL_PLAIN("lake-jsonl-plain", "queen-lake JSONL, no compression (diagnostic)"),
    /**
     * Diagnostic, not in the default set: FileSink row JSON's lines in one zstd frame per part, at the
     * lake's level, so that FileSink and the lake's JSONL pay the same compression.
     */
    FILESINK_JSONL_ZSTD("filesink-jsonl-zstd", "FileSink JSON lines+zstd (diagnostic)"),
    /**
     * Diagnostic, not in the default set, parallelism 1 only: the lake's graph with the windows chained
     * to the source instead of behind a keyed exchange, what the shuffle costs. One subtask owns every
     * key group, so the source's stream is already keyed by queue.
     */
    LAKE_JSONL_CHAINED("lake-jsonl-chained", "queen-lake JSONL+zstd, windows chained to the source (diagnostic)");

    final String id;
    final String label;

    Peer(String id, String label) {
        this.id = id;
        this.label = label;
    }

    boolean lake() {
        return this == LAKE_JSONL || this == LAKE_PARQUET || this == LAKE_JSONL_UNALIGNED || this == LAKE_JSONL_PLAIN
                || this == LAKE_JSONL_CHAINED;
    }

    boolean fileSink() {
        return this == FILESINK_JSONL || this == FILESINK_PARQUET || this == FILESINK_JSONL_ZSTD;
    }

    /** The format of the FileSink part files: the lake's extension and, for Parquet, its codec. */
    Format partFormat() {
        return switch (this) {
            case FILESINK_PARQUET -> new Format.Parquet(ParquetCodec.ZSTD);
            case FILESINK_JSONL_ZSTD -> new Format.Jsonl(Compression.ZSTD);
            default -> new Format.Jsonl(Compression.NONE);
        };
    }

    /** The suffix of the FileSink part files. */
    String partSuffix() {
        return "." + partFormat().extension();
    }
}
