package io.queenlake.source.event;

import io.queenlake.source.event.PassCompleted.PassPartition;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Enumerator to reader, after every complete discovery pass: the pass's safeTime and what changed
 * in the reader's listing since its update numbered {@code basedOn}, or the whole listing when
 * {@code basedOn} is {@link #FULL}. The reader rebuilds the pass from it ({@link PassListing}).
 *
 * <p>Why not the whole listing every pass: 5,000 queues of 10 partitions are 50,000 rows, megabytes
 * of Java serialization per reader per pass on the coordinator's thread, while a pass over a steady
 * trickle changes a few hundred rows.
 *
 * @param sequence this update's number for its reader, from 1 at each whole listing
 * @param changed per queue newly listed or changed, its new or changed partition rows (a newly
 *     listed queue may have none)
 * @param removed per queue, the partition names its listing no longer has
 * @param unlisted the queues no longer listed at all
 */
@Internal
public record PassUpdate(long sequence, long basedOn, long safeTimeMicros, Map<String, List<PassPartition>> changed,
        Map<String, Set<String>> removed, Set<String> unlisted) implements SourceEvent {

    private static final long serialVersionUID = 1L;

    /** {@link #basedOn()} of a whole listing. */
    public static final long FULL = -1;

    public PassUpdate {
        changed = Map.copyOf(changed);
        removed = Map.copyOf(removed);
        unlisted = Set.copyOf(unlisted);
        if (basedOn != FULL && basedOn >= sequence) {
            throw new IllegalArgumentException("pass update " + sequence + " cannot be based on update " + basedOn);
        }
    }

    /** The whole listing: the first a reader gets, and the next after it asked ({@link ListingRequest}). */
    public static PassUpdate full(long sequence, long safeTimeMicros, Map<String, List<PassPartition>> queues) {
        return new PassUpdate(sequence, FULL, safeTimeMicros, queues, Map.of(), Set.of());
    }

    public boolean isFull() {
        return basedOn == FULL;
    }

    /** The partition rows this update carries, all queues together. */
    public int rows() {
        return changed.values().stream().mapToInt(List::size).sum();
    }
}
