package io.queenlake.broker.client;

import java.util.List;
import java.util.Objects;

/**
 * One entry of a fetch answer, in the position of its request entry.
 *
 * <p>Offsets may jump inside {@code records}, or start above the requested offset, when retention
 * trimmed during the read: the broker reports no error for that, so callers must treat every
 * jump as lost offsets.
 *
 * @param highWatermark the next offset to be written (last offset + 1)
 * @param logStartOffset the first offset still stored
 */
public record FetchedPartition(
        String queue,
        String partition,
        List<FetchedRecord> records,
        long highWatermark,
        long logStartOffset,
        EntryError error) {

    public FetchedPartition {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        records = List.copyOf(records);
        Objects.requireNonNull(error, "error");
    }

    /** True when the read was at the end of the log: no records and no error. */
    public boolean caughtUp(long requestedOffset) {
        return error == EntryError.NONE && records.isEmpty() && requestedOffset == highWatermark;
    }
}
