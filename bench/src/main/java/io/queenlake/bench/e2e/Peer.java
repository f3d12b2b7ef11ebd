package io.queenlake.bench.e2e;

/** The ways one corpus is carried from the broker to the bucket, in the order they run. */
enum Peer {
    CEILING("ceiling", "QueenSource -> discarding sink"),
    LAKE_JSONL("lake-jsonl", "queen-lake JSONL+zstd"),
    FILESINK_JSONL("filesink-jsonl", "FileSink row JSON lines"),
    LAKE_PARQUET("lake-parquet", "queen-lake Parquet+zstd"),
    FILESINK_PARQUET("filesink-parquet", "FileSink Parquet+zstd (RowData)"),
    /**
     * Diagnostic, not in the default set: FileSink row JSON's lines in one zstd frame per part, at the
     * lake's level, so that FileSink and the lake's JSONL pay the same compression.
     */
    FILESINK_JSONL_ZSTD("filesink-jsonl-zstd", "FileSink JSON lines+zstd (diagnostic)");

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
        return this == FILESINK_JSONL || this == FILESINK_PARQUET || this == FILESINK_JSONL_ZSTD;
    }

    /** The suffix of the FileSink part files. */
    String partSuffix() {
        return switch (this) {
            case FILESINK_PARQUET -> ".parquet";
            case FILESINK_JSONL_ZSTD -> ".jsonl.zst";
            default -> ".jsonl";
        };
    }
}
