package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.split.PartitionSplit;
import java.util.List;
import java.util.Objects;

/**
 * What the fetcher thread hands the task thread for one queue split, in log order per partition:
 * a record (with the offsets lost just before it), a move of a partition's
 * position that carries no record, or a partition incarnation joining or leaving the split.
 */
sealed interface ReadItem permits ReadItem.Record, ReadItem.Moved, ReadItem.Added, ReadItem.Retired {

    /** One fetched record of {@code partition} and the lost ranges that must ride on it downstream. */
    record Record(PartitionSplit partition, FetchedRecord record, List<LostRange> lostBefore) implements ReadItem {
        public Record {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(record, "record");
            lostBefore = List.copyOf(lostBefore);
        }
    }

    /**
     * The partition now reads from {@code nextOffset} without having emitted a record: a seek by
     * time was resolved ({@code checkpointed}: the split state moves, a restore need not seek again),
     * or retention trimmed the log ahead of it (not checkpointed: the split state stays before the
     * gap, so a restore finds the same gap again and its lost range still rides on the next record).
     */
    record Moved(PartitionSplit partition, long nextOffset, boolean checkpointed) implements ReadItem {}

    /** A partition, or a new incarnation, that a pass listed and the split did not hold. */
    record Added(PartitionSplit partition) implements ReadItem {}

    /**
     * An incarnation never read again (replaced, or its queue gone); {@code lost}, what of it was
     * not read, rides on the partition's next record.
     */
    record Retired(PartitionSplit partition, List<LostRange> lost) implements ReadItem {
        public Retired {
            lost = List.copyOf(lost);
        }
    }
}
