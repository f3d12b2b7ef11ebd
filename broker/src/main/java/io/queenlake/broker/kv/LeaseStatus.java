package io.queenlake.broker.kv;

import java.util.Locale;
import java.util.Objects;

/**
 * Who holds one queue's lease, as this enumerator last saw it.
 *
 * @param heldBy the other instance's name when {@link State#HELD}, else empty
 */
public record LeaseStatus(State state, String heldBy) {

    public enum State {
        /** Not tried yet, or the last try failed before a verdict: the queue waits. */
        PENDING,
        /** This enumerator holds the lease: the queue is discovered and assigned. */
        MINE,
        /** Another instance holds it: the queue is neither discovered nor assigned; retried every TTL. */
        HELD
    }

    public static final LeaseStatus PENDING = new LeaseStatus(State.PENDING, "");
    public static final LeaseStatus MINE = new LeaseStatus(State.MINE, "");

    public LeaseStatus {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(heldBy, "heldBy");
    }

    public static LeaseStatus heldBy(String instance) {
        return new LeaseStatus(State.HELD, instance);
    }

    public boolean mine() {
        return state == State.MINE;
    }

    @Override
    public String toString() {
        return state == State.HELD ? "held by " + heldBy : state.name().toLowerCase(Locale.ROOT);
    }
}
