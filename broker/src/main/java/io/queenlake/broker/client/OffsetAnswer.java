package io.queenlake.broker.client;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One {@code fetch/offsets} answer entry.
 *
 * <p>The lookup has millisecond precision only: the records at {@code offset} may be stamped a
 * little before the asked time in microseconds, so callers filter them by their {@code ts}.
 *
 * @param offset the first offset of the first append stamped at or after the time; empty when
 *     nothing was appended that late (start at {@code highWatermark})
 * @param tsMicros the stamp of that append, empty with {@code offset}
 */
public record OffsetAnswer(
        String queue,
        String partition,
        OptionalLong offset,
        OptionalLong tsMicros,
        long highWatermark,
        long logStartOffset,
        EntryError error) {

    public OffsetAnswer {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(offset, "offset");
        Objects.requireNonNull(tsMicros, "tsMicros");
        Objects.requireNonNull(error, "error");
    }
}
