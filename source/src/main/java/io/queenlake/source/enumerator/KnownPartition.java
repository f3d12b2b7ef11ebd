package io.queenlake.source.enumerator;

import io.queenlake.broker.client.PartitionInfo;

/**
 * What the enumerator knows about one partition's current incarnation: its id, the last offset and
 * log start discovery reported (each only moves up), and the incarnation it replaced, if any.
 * Mutable; owned by the coordinator thread.
 */
final class KnownPartition {

    final String id;
    long lastOffset;
    long logStart;
    /** The incarnation this one replaced under the same name, {@code ""} for none. */
    String replacedId = "";
    /** The last offset discovery saw in the replaced incarnation. */
    long replacedLastOffset = -1;

    KnownPartition(String id, long lastOffset, long logStart) {
        this.id = id;
        this.lastOffset = lastOffset;
        this.logStart = logStart;
    }

    static KnownPartition of(PartitionInfo p) {
        return new KnownPartition(p.id(), p.lastOffset(), p.logStart());
    }

    /** A later report of the same incarnation: a stale page can never move the offsets back. */
    void update(PartitionInfo p) {
        lastOffset = Math.max(lastOffset, p.lastOffset());
        logStart = Math.max(logStart, p.logStart());
    }
}
