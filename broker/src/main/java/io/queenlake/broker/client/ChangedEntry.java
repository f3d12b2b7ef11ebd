package io.queenlake.broker.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One queue's page of a {@code partitions/changed} answer.
 *
 * @param next the cursor for the following page, present exactly when this page is full
 */
public record ChangedEntry(String queue, List<PartitionInfo> partitions, Optional<String> next, EntryError error) {

    public ChangedEntry {
        Objects.requireNonNull(queue, "queue");
        partitions = List.copyOf(partitions);
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(error, "error");
    }
}
