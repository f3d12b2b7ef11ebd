package io.queenlake.source.enumerator;

import io.queenlake.broker.client.PartitionInfo;

/**
 * What the enumerator knows about one partition's current incarnation: its id, the last offset and
 * log start discovery reported (each only moves up), and whether its split is with a reader.
 * Mutable; owned by the coordinator thread.
 */
final class KnownPartition {

    final String id;
    long lastOffset;
    long logStart;
    /** The current incarnation's split is with a reader (not waiting in the pending list). */
    boolean assigned;
    /** Assigned before a restore with another parallelism: which reader holds it is not known. */
    boolean ownerUnknown;

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
