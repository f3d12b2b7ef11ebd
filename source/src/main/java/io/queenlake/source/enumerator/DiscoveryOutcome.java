package io.queenlake.source.enumerator;

import io.queenlake.broker.client.EntryError;
import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.broker.client.QueenException;
import io.queenlake.source.enumerator.start.StartPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One discovery run's answer, handed from the worker thread to the coordinator thread.
 *
 * @param safeTimeMicros the minimum safeTime over every page of the pass
 * @param partitions per queue that answered, its rows (only changed partitions for an incremental query)
 * @param errors per queue that answered with an entry error
 * @param plans start plans of the input's undecided queues
 * @param listing the tenant's queues, listed after the pass's pages, when the input asked
 * @param failure a retriable broker failure: nothing else is set and the pass counts for nothing
 */
record DiscoveryOutcome(
        DiscoveryInput input,
        long safeTimeMicros,
        Map<String, List<PartitionInfo>> partitions,
        Map<String, EntryError> errors,
        Map<String, StartPlan> plans,
        Optional<List<String>> listing,
        int calls,
        Optional<QueenException> failure) {

    static DiscoveryOutcome failed(DiscoveryInput input, QueenException failure) {
        return new DiscoveryOutcome(input, Long.MIN_VALUE, Map.of(), Map.of(), Map.of(), Optional.empty(), 0,
                Optional.of(failure));
    }
}
