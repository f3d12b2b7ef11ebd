package io.queenlake.source.enumerator;

import io.queenlake.broker.client.ChangedPass;
import io.queenlake.broker.client.ChangedPassWalker;
import io.queenlake.broker.client.ChangedQuery;
import io.queenlake.broker.client.EntryError;
import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.source.enumerator.start.StartPlan;
import io.queenlake.source.enumerator.start.StartPlanLoader;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The blocking half of discovery, run off the coordinator thread: start plans for undecided
 * queues, then one pass of {@code partitions/changed} (full queries and incremental ones, paged to
 * the end, safeTime the minimum over every page), then the queue listing when asked. The listing
 * comes after the pages on purpose: a queue holding a record stamped at or below the pass's
 * safeTime existed before the listing, so a listing that shows no new queue proves the pass
 * covered every queue.
 *
 * <p>One attempt per run: a retriable failure is the outcome, and the next run tries again.
 */
final class DiscoveryRun {

    private final QueenClient client;
    private final StartPlanLoader plans;

    DiscoveryRun(QueenClient client, StartPlanLoader plans) {
        this.client = client;
        this.plans = plans;
    }

    DiscoveryOutcome run(DiscoveryInput input) {
        try {
            Map<String, StartPlan> started = input.undecided().isEmpty() ? Map.of() : plans.load(input.undecided());
            Map<String, List<PartitionInfo>> partitions = new HashMap<>();
            Map<String, EntryError> errors = new HashMap<>();
            long safeTime = Long.MAX_VALUE;
            int calls = 0;
            boolean anyQuery = false;
            if (!input.fullQueues().isEmpty()) {
                ChangedPass full = ChangedPassWalker.walk(client, input.fullQueues(), OptionalLong.empty(), ChangedQuery.MAX_LIMIT);
                safeTime = Math.min(safeTime, full.safeTimeMicros());
                partitions.putAll(full.partitions());
                errors.putAll(full.errors());
                calls += full.calls();
                anyQuery = true;
            }
            if (!input.incrementalQueues().isEmpty()) {
                ChangedPass changed = ChangedPassWalker.walk(client, input.incrementalQueues(), input.sinceMicros(), ChangedQuery.MAX_LIMIT);
                safeTime = Math.min(safeTime, changed.safeTimeMicros());
                partitions.putAll(changed.partitions());
                errors.putAll(changed.errors());
                calls += changed.calls();
                anyQuery = true;
            }
            if (!anyQuery) {
                // No queue to ask: the broker's safeTime alone still moves readers with no split.
                ChangedPass bare = ChangedPassWalker.walk(client, List.of(), OptionalLong.empty(), ChangedQuery.MAX_LIMIT);
                safeTime = bare.safeTimeMicros();
                calls += bare.calls();
            }
            Optional<List<String>> listing = input.relist() ? Optional.of(client.queues()) : Optional.empty();
            return new DiscoveryOutcome(input, safeTime, partitions, errors, started, listing, calls, Optional.empty());
        } catch (QueenException e) {
            if (!e.retriable()) {
                throw e;
            }
            return DiscoveryOutcome.failed(input, e);
        }
    }
}
