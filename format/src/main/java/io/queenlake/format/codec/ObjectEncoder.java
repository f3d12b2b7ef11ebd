package io.queenlake.format.codec;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RunSlice;
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

    /** The implementation's version: in every writer string, and in a Parquet footer's {@code created_by}. */
    String VERSION = "0.1.0";

    /** The implementation name and version every writer string starts with. */
    String WRITER = "queen-lake/" + VERSION;

    /**
     * Encodes {@code records} into {@code out}. Does not close {@code out}.
     *
     * @param labels what the object belongs to (Parquet puts them in its footer)
     */
    void encode(List<LogRecord> records, Labels labels, OutputStream out) throws IOException;

    /** How an open window keeps a record for this encoder ({@link #encodeRuns}): a new one, for one thread. */
    RecordEncoding recordEncoding();

    /**
     * Encodes runs of records kept by {@link #recordEncoding()}, already in lake order, into the very
     * bytes {@link #encode} writes for the same records. Does not close {@code out}.
     */
    void encodeRuns(List<RunSlice> inLakeOrder, Labels labels, OutputStream out) throws IOException;

    /** Refuses a run another format kept: its bytes would not be this object's. */
    static void requireEncoding(RunSlice slice, String expected) {
        if (!slice.encoding().equals(expected)) {
            throw new IllegalArgumentException("the records of partition '" + slice.partition() + "' were kept as "
                    + slice.encoding() + ", but this object is written from " + expected);
        }
    }
}
