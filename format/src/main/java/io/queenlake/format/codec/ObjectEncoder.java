package io.queenlake.format.codec;

import io.queenlake.format.model.LogRecord;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes the bytes of one lake object from records already in lake order (partition name in
 * UTF-8 byte order, older incarnation first, then offset). Implementations are pinned: the same
 * records and the same labels always give the same bytes, and nothing else (no clock, host,
 * subtask or random value) reaches the output.
 */
public interface ObjectEncoder {

    /** The implementation name and version every writer string starts with. */
    String WRITER = "queen-lake/0.1.0";

    /**
     * Encodes {@code records} into {@code out}. Does not close {@code out}.
     *
     * @param labels what the object belongs to (Parquet puts them in its footer)
     */
    void encode(List<LogRecord> records, Labels labels, OutputStream out) throws IOException;

    /** The key extension without the dot: {@code jsonl.zst}, {@code jsonl.gz}, {@code jsonl}, {@code parquet}. */
    String extension();

    /** The manifest's {@code format}: {@code jsonl} or {@code parquet}. */
    String format();

    /** The manifest's {@code compression}: {@code zstd|gzip|none} for JSONL, {@code zstd|snappy} for Parquet. */
    String compression();

    /** The writer string of manifest and intent, e.g. {@code queen-lake/0.1.0 jsonl+zstd}. */
    String describe();
}
