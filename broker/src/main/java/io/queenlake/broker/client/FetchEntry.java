package io.queenlake.broker.client;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * One partition to read from {@code offset}, with its own byte budget.
 *
 * @param maxBytes payload bytes for this entry; empty lets the broker use its default (1 MiB);
 *     the broker clamps it to [1, 8 MiB] and always delivers the first record
 */
public record FetchEntry(String queue, String partition, long offset, OptionalInt maxBytes) {

    public FetchEntry {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(maxBytes, "maxBytes");
    }

    public static FetchEntry of(String queue, String partition, long offset, int maxBytes) {
        return new FetchEntry(queue, partition, offset, OptionalInt.of(maxBytes));
    }

    public static FetchEntry withDefaultBudget(String queue, String partition, long offset) {
        return new FetchEntry(queue, partition, offset, OptionalInt.empty());
    }
}
