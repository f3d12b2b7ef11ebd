package io.queenlake.broker.kv;

/**
 * One queue's lease as a {@link LeaseKeeper} holds it, and its watch over a lease of the keeper's own
 * instance name held by another incarnation (taken over only once it stands still).
 */
final class LeaseSlot {

    LeaseStatus status = LeaseStatus.PENDING;
    long version;
    long retryAtMs;
    /** A lease of this instance name held by another incarnation: its version when last seen, 0 if none. */
    long watchedVersion;
    /** Since when (this keeper's clock) {@link #watchedVersion} has stood still. */
    long watchedSinceMs;
    /** The watched lease's version changed between two sightings: its incarnation is alive. */
    boolean moved;

    void mine(long version) {
        this.status = LeaseStatus.MINE;
        this.version = version;
        forget();
    }

    /**
     * Records a sighting of the lease at version {@code seen}; true once that version has stood still
     * for {@code staleAfterMs}.
     */
    boolean standsStill(long seen, long now, long staleAfterMs) {
        if (seen != watchedVersion) {
            moved = watchedVersion != 0;
            watchedVersion = seen;
            watchedSinceMs = now;
            return false;
        }
        return now - watchedSinceMs >= staleAfterMs;
    }

    void forget() {
        watchedVersion = 0;
        moved = false;
    }
}
