package io.queenlake.source.enumerator;

import io.queenlake.source.enumerator.start.StartDecision;
import io.queenlake.source.split.PartitionSplit;
import java.util.List;
import java.util.Objects;

/**
 * The enumerator's checkpointed state: per decided queue its start decision (so a restore never
 * decides again) and every known partition's current incarnation; the splits still waiting for a
 * reader; and the discovery counters. Splits already with a reader live in that reader's state.
 *
 * @param passes complete discovery passes so far (every 30th is a full sweep)
 * @param lastSafeTimeMicros the safeTime of the last complete pass, {@link Long#MIN_VALUE} before any
 * @param parallelism the reader count the assigned splits were spread over, 0 when none were
 */
public record QueenEnumState(
        long passes, long lastSafeTimeMicros, int parallelism, List<QueueEntry> queues, List<PartitionSplit> pendingSplits) {

    /**
     * One decided queue.
     *
     * @param partitions every known partition's current incarnation
     */
    public record QueueEntry(String queue, StartDecision start, List<PartitionEntry> partitions) {
        public QueueEntry {
            Objects.requireNonNull(queue, "queue");
            Objects.requireNonNull(start, "start");
            partitions = List.copyOf(partitions);
        }
    }

    /**
     * One partition's current incarnation.
     *
     * @param assigned its split is with a reader (otherwise it is among the pending splits)
     * @param ownerUnknown assigned before a restore with another parallelism
     */
    public record PartitionEntry(
            String name, String id, long lastOffset, long logStart, boolean assigned, boolean ownerUnknown) {
        public PartitionEntry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(id, "id");
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
