package io.queenlake.broker.kv;

import java.util.Map;
import java.util.Optional;

/**
 * An immutable snapshot of every wanted queue's lease after one {@link LeaseKeeper#tick()}, handed
 * from the worker thread to the coordinator thread.
 *
 * @param failure a retriable broker failure that cut the tick short (the statuses it reached still
 *     hold); empty when the tick completed
 */
public record LeaseView(Map<String, LeaseStatus> statuses, Optional<RuntimeException> failure) {

    public LeaseView {
        statuses = Map.copyOf(statuses);
    }

    public LeaseStatus status(String queue) {
        return statuses.getOrDefault(queue, LeaseStatus.PENDING);
    }
}
