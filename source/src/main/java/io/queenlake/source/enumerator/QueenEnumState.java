package io.queenlake.source.enumerator;

import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.split.QueueSplit;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * The enumerator's checkpointed state: per decided queue its start decision (so a restore never
 * decides again) and every known partition's current incarnation; the splits still waiting for a
 * reader; and the discovery counters. Queue splits already with a reader live in that reader's state.
 *
 * @param passes complete discovery passes so far (every 30th is a full sweep)
 * @param lastSafeTimeMicros the safeTime of the last complete pass, {@link Long#MIN_VALUE} before any
 * @param parallelism the reader count the assigned splits were spread over, 0 when none were
 */
@Internal
public record QueenEnumState(
        long passes, long lastSafeTimeMicros, int parallelism, List<QueueEntry> queues, List<QueueSplit> pendingSplits) {

    /**
     * One decided queue.
     *
     * @param partitions every known partition's current incarnation
     * @param assigned the queue's split is with a reader (otherwise it is among the pending splits,
     *     or not made yet)
     * @param ownerUnknown assigned before a restore with another parallelism
     */
    public record QueueEntry(String queue, StartDecision start, List<PartitionEntry> partitions,
            boolean assigned, boolean ownerUnknown) {
        public QueueEntry {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(start, "start");
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * One partition's current incarnation.
     *
     * @param replacedId the incarnation it replaced, {@code ""} for none
     * @param replacedLastOffset the last offset discovery saw in the replaced incarnation
     */
    public record PartitionEntry(
            String name, String id, long lastOffset, long logStart, String replacedId, long replacedLastOffset) {
        public PartitionEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(id, "id");
            replacedId = replacedId == null ? "" : replacedId;
        }
    }

    public QueenEnumState {
        queues = List.copyOf(queues);
        pendingSplits = List.copyOf(pendingSplits);
    }

    public static QueenEnumState empty() {
        return new QueenEnumState(0, Long.MIN_VALUE, 0, List.of(), List.of());
    }
}
