package io.queenlake.source.enumerator;

import java.util.List;
import java.util.OptionalLong;

/**
 * What the next discovery pass asks, decided on the coordinator thread and read by the worker.
 *
 * @param fullQueues queues asked with {@code since = null}: first seen in this run, or a full sweep
 * @param incrementalQueues queues asked with {@code since}: a partition not returned has not been
 *     written since, so its last known {@code lastOffset} still holds
 * @param sinceMicros the last complete pass's safeTime minus the slack; empty when every queue is full
 * @param undecided queues among {@code fullQueues} with no start decision: read their commit pointer
 * @param relist list the tenant's queues after the pass ({@code queen.s3.queues=*})
 */
record DiscoveryInput(
        List<String> fullQueues,
        List<String> incrementalQueues,
        OptionalLong sinceMicros,
        List<String> undecided,
        boolean relist) {

    DiscoveryInput {
        fullQueues = List.copyOf(fullQueues);
        incrementalQueues = List.copyOf(incrementalQueues);
        undecided = List.copyOf(undecided);
    }

    static DiscoveryInput nothing(boolean relist) {
        return new DiscoveryInput(List.of(), List.of(), OptionalLong.empty(), List.of(), relist);
    }
}
