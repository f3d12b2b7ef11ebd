package io.queenlake.broker.client;

import java.util.Objects;

/** One {@code fetch/offsets} entry: the first offset of the partition stamped at or after a time (milliseconds). */
public record OffsetQuery(String queue, String partition, long timestampMillis) {

    public OffsetQuery {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        if (timestampMillis < 0) {
            throw new IllegalArgumentException("timestampMillis must be 0 or more, was " + timestampMillis);
        }
    }
}
