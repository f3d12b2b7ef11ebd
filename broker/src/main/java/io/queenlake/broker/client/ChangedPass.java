package io.queenlake.broker.client;

import java.util.List;
import java.util.Map;

/**
 * A complete discovery pass: every page of every asked queue, walked to its end.
 *
 * @param safeTimeMicros the minimum safeTime over the pass's pages: a partition created after the
 *     pass only holds records stamped above it
 * @param partitions per queue that answered, its partitions in creation order
 * @param errors per queue that answered with an error (unknown queue, bad cursor)
 * @param calls the number of broker calls the pass took
 */
public record ChangedPass(
        long safeTimeMicros,
        Map<String, List<PartitionInfo>> partitions,
        Map<String, EntryError> errors,
        int calls) {

    public ChangedPass {
        partitions = Map.copyOf(partitions);
        errors = Map.copyOf(errors);
    }
}
