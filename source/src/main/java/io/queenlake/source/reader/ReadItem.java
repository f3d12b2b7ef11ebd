package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.format.model.LostRange;
import java.util.List;
import java.util.Objects;

/**
 * What the fetcher thread hands the task thread for one split, in log order: a record (with the
 * offsets lost just before it), or a move of the split's position that carries no record.
 */
sealed interface ReadItem permits ReadItem.Record, ReadItem.Moved {

    /** One fetched record and the lost ranges that must ride on it downstream. */
    record Record(FetchedRecord record, List<LostRange> lostBefore) implements ReadItem {
        public Record {
            Objects.requireNonNull(record, "record");
            lostBefore = List.copyOf(lostBefore);
        }
    }

    /**
     * The split now reads from {@code nextOffset} without having emitted a record: a seek by time
     * was resolved ({@code checkpointed}: the split state moves, a restore need not seek again), or
     * retention trimmed the log ahead of it (not checkpointed: the split state stays before the gap,
     * so a restore finds the same gap again and its lost range still rides on the next record).
     */
    record Moved(long nextOffset, boolean checkpointed) implements ReadItem {}
}
