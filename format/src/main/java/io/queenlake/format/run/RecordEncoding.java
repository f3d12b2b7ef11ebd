package io.queenlake.format.run;

import io.queenlake.format.model.LogRecord;

/**
 * How an open window keeps a record until it closes: the bytes the lake's format makes of it, made
 * as the record is read, so closing a window only puts runs in lake order and concatenates. Each
 * object encoder has one ({@code ObjectEncoder#recordEncoding}). Not thread-safe: one per thread.
 */
public interface RecordEncoding {

    /** The name the runs carry, so an encoder never reads another format's bytes. */
    String name();

    /**
     * Encodes {@code r} and appends it to {@code run}.
     *
     * @return whether the lake holds the payload rewritten, as something other than its bytes
     *     ({@code PayloadText.isRewritten}): the caller counts and logs each, and a JSONL line's own
     *     check of the payload says so without a second pass over it
     */
    boolean append(LogRecord r, RecordRun run);

    /** A run for this encoding's bytes. */
    default RecordRun newRun(String partition, String partitionId) {
        return new RecordRun(partition, partitionId, name());
    }
}
