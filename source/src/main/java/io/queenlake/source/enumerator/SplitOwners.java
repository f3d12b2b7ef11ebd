package io.queenlake.source.enumerator;

import org.apache.flink.annotation.Internal;

/**
 * Which reader owns a partition's splits: a pure function of the queue name, the partition name
 * and the number of readers, so every incarnation of a partition goes to the same reader (which
 * then sees the old and the new one in order) and a restart with the same parallelism assigns as
 * before. Like Kafka's {@code getSplitOwner}, but from names (partition names are not numbers).
 */
@Internal
public final class SplitOwners {

    private SplitOwners() {}

    /** A reader index in {@code [0, readers)}. {@code String.hashCode} is specified, so this is stable across JVMs. */
    public static int ownerOf(String queue, String partition, int readers) {
        if (readers <= 0) {
            throw new IllegalArgumentException("a split needs at least one reader to own it, got " + readers);
        }
        int h = queue.hashCode() * 31 + partition.hashCode();
        // murmur3's finaliser: neighbouring names (p-1, p-2, ...) spread evenly over readers.
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, readers);
    }
}
