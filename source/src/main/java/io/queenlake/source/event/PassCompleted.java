package io.queenlake.source.event;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * A complete discovery pass as a reader knows it: the pass's safeTime (the minimum over its pages)
 * and, for each queue whose split that reader may hold, every current partition incarnation the
 * enumerator knows. The enumerator sends only what changed ({@link PassUpdate}); the reader's
 * {@link PassListing} rebuilds this. The reader's per-queue frontiers are judged against exactly
 * these numbers, and the reader starts reading a partition (or a new incarnation) the split did not
 * hold when a pass first lists it.
 */
@Internal
public record PassCompleted(long safeTimeMicros, Map<String, List<PassPartition>> queues) {

    public PassCompleted {
        queues = Map.copyOf(queues);
    }

    /**
     * One current partition incarnation of a queue.
     *
     * @param lastOffset the last offset discovery reported, {@code -1} for an empty partition
     * @param startOffset where a reader that does not hold it starts it (it was found after the
     *     queue's first pass, so all its records are stamped after that pass's safeTime)
     * @param skipBelowMicros records stamped below this are never emitted (the pointer's tEnd)
     * @param replacedId the incarnation this one replaced under the same name, {@code ""} for none
     * @param replacedLastOffset the last offset discovery saw in the replaced incarnation
     */
    public record PassPartition(String partition, String partitionId, long lastOffset, long startOffset,
            long skipBelowMicros, String replacedId, long replacedLastOffset) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
