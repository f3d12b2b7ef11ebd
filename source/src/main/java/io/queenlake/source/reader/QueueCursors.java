package io.queenlake.source.reader;

import io.queenlake.format.model.LostRange;
import io.queenlake.source.event.PassCompleted.PassPartition;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueSplit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue split on the fetcher thread: its partitions' cursors by partition split id, and the
 * items made outside a fetch round (joins and retirements), emitted first in the next. The passes
 * change which incarnations it holds ({@link #reconcile}); a cursor whose queue is gone leaves it
 * ({@link #retireIfGone}). Fetcher thread only.
 */
final class QueueCursors {

    // Its lines keep the split reader's logger, as before this class had a file of its own.
    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitReader.class);

    private final String queue;
    private final String splitId;
    private final long windowMs;
    private final Map<String, SplitCursor> cursors = new LinkedHashMap<>();
    /** Items made outside a fetch round (joins and retirements), emitted first in the next. */
    private final List<ReadItem> pending = new ArrayList<>();

    /** The split's partitions, each read from its split's position; {@code windowMs} paces the joiners too. */
    QueueCursors(QueueSplit split, long windowMs) {
        this.queue = split.queue();
        this.splitId = QueueSplit.splitId(queue);
        this.windowMs = windowMs;
        for (PartitionSplit partition : split.partitions()) {
            cursors.put(partition.splitId(), new SplitCursor(partition, windowMs));
        }
    }

    String queue() {
        return queue;
    }

    String splitId() {
        return splitId;
    }

    /** Its cursors in the order they joined. */
    Collection<SplitCursor> cursors() {
        return cursors.values();
    }

    /** The cursor of a partition incarnation this split reads, or null. */
    SplitCursor cursor(String partitionSplitId) {
        return cursors.get(partitionSplitId);
    }

    /** Moves the items made outside a fetch round into {@code batch}, ahead of the round's own. */
    void drainPending(ReadBatch batch) {
        batch.add(splitId, pending);
        pending.clear();
    }

    /**
     * The queue's partitions as the pass lists them: known incarnations learn their last offset,
     * replaced ones retire, new ones join; an incarnation the pass does not list is not read until
     * one does (fetch goes by partition name, so a replaced incarnation would read its successor).
     */
    void reconcile(List<PassPartition> rows) {
        Map<String, PassPartition> byName = new HashMap<>(rows.size() * 2);
        for (PassPartition row : rows) {
            byName.put(row.partition(), row);
        }
        Map<String, Boolean> current = new HashMap<>();
        for (SplitCursor cursor : List.copyOf(cursors.values())) {
            PartitionSplit split = cursor.split();
            PassPartition row = byName.get(split.partition());
            if (row == null) {
                cursor.onPass(null);
            } else if (row.partitionId().equals(split.partitionId())) {
                cursor.onPass(row.lastOffset());
                current.put(split.partition(), true);
            } else {
                long lastKnown = row.replacedId().equals(split.partitionId()) ? row.replacedLastOffset() : SplitCursor.UNKNOWN;
                retire(cursor, cursor.retire(lastKnown));
            }
        }
        for (PassPartition row : rows) {
            if (current.containsKey(row.partition())) {
                continue;
            }
            PartitionSplit joined = PartitionSplit.atOffset(
                    queue, row.partition(), row.partitionId(), row.startOffset(), row.skipBelowMicros());
            if (cursors.containsKey(joined.splitId())) {
                continue;
            }
            SplitCursor cursor = new SplitCursor(joined, windowMs);
            cursor.onPass(row.lastOffset());
            cursors.put(joined.splitId(), cursor);
            pending.add(new ReadItem.Added(joined));
            LOG.info("queue '{}' partition '{}' incarnation {} joins this reader at offset {}",
                    queue, row.partition(), row.partitionId(), row.startOffset());
        }
    }

    private void retire(SplitCursor old, List<LostRange> lost) {
        cursors.remove(old.splitId());
        pending.add(new ReadItem.Retired(old.split(), lost));
        LOG.info("queue '{}' partition '{}': incarnation {} is no longer read; it stops at offset {}{}",
                queue, old.split().partition(), old.split().partitionId(), old.nextOffset(),
                lost.isEmpty() ? "" : ", unread offsets " + lost + " ride on the partition's next record");
    }

    /** A partition whose queue is gone leaves the split; the queue's split stays, for a re-created queue. */
    void retireIfGone(SplitCursor cursor, ReadBatch batch) {
        if (cursor.gone() && cursors.remove(cursor.splitId()) != null) {
            batch.add(splitId, List.of(new ReadItem.Retired(cursor.split(), List.of())));
        }
    }
}
