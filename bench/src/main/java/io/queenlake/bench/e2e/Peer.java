package io.queenlake.bench.e2e;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;

/** The ways one corpus is carried from the broker to the bucket, in the order they run. */
enum Peer {
    /** QueenSource into a sink that counts and drops every record: what the read alone costs. */
    CEILING("ceiling", "QueenSource -> discarding sink"),
    LAKE_JSONL("lake-jsonl", "queen-lake JSONL+zstd"),
    /** FileSink writing the lake line's fields as JSON lines in the lake's zstd ({@link ZstdJsonLineWriters}). */
    FILESINK_JSONL_ZSTD("filesink-jsonl-zstd", "FileSink JSON lines+zstd"),
    LAKE_PARQUET("lake-parquet", "queen-lake Parquet+zstd"),
    /** FileSink with flink-parquet's RowData writer, zstd ({@link RowDataParquetWriters}). */
    FILESINK_PARQUET("filesink-parquet", "FileSink Parquet+zstd (RowData)");

    final String id;
    final String label;

    Peer(String id, String label) {
        this.id = id;
        this.label = label;
    }

    boolean lake() {
        return this == LAKE_JSONL || this == LAKE_PARQUET;
    }

    boolean fileSink() {
        return this == FILESINK_JSONL_ZSTD || this == FILESINK_PARQUET;
    }

    /** The format of the FileSink part files: the lake's extension and, for Parquet, its codec. */
    Format partFormat() {
        return this == FILESINK_PARQUET ? new Format.Parquet(ParquetCodec.ZSTD) : new Format.Jsonl(Compression.ZSTD);
    }

    /** The suffix of the FileSink part files. */
    String partSuffix() {
        return "." + partFormat().extension();
    }
}
