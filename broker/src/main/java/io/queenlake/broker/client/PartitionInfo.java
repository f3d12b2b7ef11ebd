package io.queenlake.broker.client;

import java.util.Objects;

/**
 * A partition as {@code partitions/changed} lists it.
 *
 * @param id the incarnation: a partition deleted and re-created gets a new id and restarts at offset 0
 * @param lastOffset the last offset written, -1 when empty
 * @param logStart the first offset still stored
 * @param lastWriteAtMicros the stamp of the last record
 */
public record PartitionInfo(String name, String id, long lastOffset, long logStart, long lastWriteAtMicros) {

    public PartitionInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
    }
}
