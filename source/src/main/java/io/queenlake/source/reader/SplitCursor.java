package io.queenlake.source.reader;

import io.queenlake.broker.client.EntryError;
import io.queenlake.broker.client.FetchEntry;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.OffsetAnswer;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher thread's view of one split: the next offset to read, how far the broker said this
 * incarnation's log goes, gaps waiting for a record to ride on, and whether the split may be
 * fetched now. It turns broker answers into {@link ReadItem}s; it never talks to the broker and
 * the task thread never touches it.
 */
final class SplitCursor {

    private static final Logger LOG = LoggerFactory.getLogger(SplitCursor.class);

    /** {@code readableThrough} before discovery or an answer said anything. */
    static final long UNKNOWN = Long.MIN_VALUE;

    /** What one answer did to the split, for the fetch-call metrics and the caller's decisions. */
    enum Outcome {
        /** Records were read. */
        RECORDS,
        /** Nothing new: the split is at the end of its log. */
        CAUGHT_UP,
        /** Retention trimmed past the split: it moved to the log start, the gap is pending. */
        TRIMMED,
        /** The broker's log is behind the split, or went back: another incarnation answers under this name. */
        AHEAD_OF_LOG,
        /** The queue no longer exists: the split is finished. */
        GONE,
        /** An entry error this reader does not know; the split is retried next round. */
        ENTRY_ERROR,
        /** A seek by time found the first offset to read. */
        POSITIONED
    }

    private final PartitionSplit split;
    private final String splitId;
    private long nextOffset;
    private long readableThrough = UNKNOWN;
    private long seenHighWatermark = -1;
    private long seenLogStart = -1;
    private long lastFetchedTs = Long.MIN_VALUE;
    private final List<LostRange> pendingLost = new ArrayList<>();
    private final FetchBudget budget;
    private boolean listed;
    private boolean gone;
    private boolean warnedAhead;

    SplitCursor(PartitionSplit split, long windowMs) {
        this.split = split;
        this.splitId = split.splitId();
        this.nextOffset = split.nextOffset();
        this.budget = new FetchBudget(windowMs);
    }

    PartitionSplit split() {
        return split;
    }

    String splitId() {
        return splitId;
    }

    long nextOffset() {
        return nextOffset;
    }

    long readableThrough() {
        return readableThrough;
    }

    boolean gone() {
        return gone;
    }

    boolean needsSeek() {
        return !gone && nextOffset == PartitionSplit.SEEK_BY_TIME;
    }

    /**
     * Whether the newest complete pass lists this incarnation. Only a listed split is read: fetch
     * and fetch/offsets go by partition name, so a split restored from a checkpoint whose
     * incarnation was replaced meanwhile would read the new incarnation's records as its own.
     */
    boolean listed() {
        return listed;
    }

    /** Waits for its start to be found by time, and discovery lists it. */
    boolean readyToSeek() {
        return listed && needsSeek();
    }

    /**
     * Whether this split is behind what discovery (or a later answer) reported: a caught-up split
     * waits for a pass that moved it, so idle partitions are never fetched in a loop.
     */
    boolean behind() {
        return listed && !gone && !needsSeek() && readableThrough != UNKNOWN && nextOffset <= readableThrough;
    }

    /**
     * Whether it waits for its queue's frontier {@code frontierMicros} (docs/ARCHITECTURE.md
     * "Windows"): its last read stamp is more than one window ahead of it, or, while the open
     * windows are over their memory budget, ahead of it at all (only the partitions holding the
     * frontier back are read then, so the windows can close). A split that has fetched records
     * while its queue has no frontier yet (another partition of the queue has neither read a record
     * nor caught up with a pass) waits for one: no window of the queue can close before, so reading
     * on would only fill memory, up to the whole log of a backfill.
     */
    boolean waitsForFrontier(long frontierMicros, long windowMicros, boolean overBudget) {
        if (lastFetchedTs == Long.MIN_VALUE) {
            return false;
        }
        if (frontierMicros == Long.MIN_VALUE) {
            return true;
        }
        return lastFetchedTs > frontierMicros + (overBudget ? 1 : windowMicros);
    }

    /**
     * A complete pass reported this incarnation's last offset (read up to it), or did not list it
     * (null: replaced or gone; not read until a pass lists it again).
     */
    void onPass(Long lastOffset) {
        listed = lastOffset != null;
        if (listed) {
            readableThrough = readableThrough == UNKNOWN ? lastOffset : Math.max(readableThrough, lastOffset);
        }
    }

    /** The next fetch of this split: what {@link FetchBudget} learned, at most {@code capBytes}. */
    FetchEntry entry(int capBytes) {
        return FetchEntry.of(split.queue(), split.partition(), nextOffset, Math.min(capBytes, budget.bytes()));
    }

    OffsetQuery seekQuery() {
        return new OffsetQuery(split.queue(), split.partition(), Math.max(0L, Math.floorDiv(split.skipBelowMicros(), 1000L)));
    }

    /** Turns one fetch answer for {@link #nextOffset()} into items, in log order. */
    Outcome absorb(FetchedPartition answer, List<ReadItem> items) {
        long requested = nextOffset;
        switch (answer.error()) {
            case UNKNOWN_TOPIC_OR_PARTITION:
                return queueGone();
            case OFFSET_OUT_OF_RANGE:
                if (answer.logStartOffset() > requested) {
                    pendingLost.add(new LostRange(split.partition(), requested, answer.logStartOffset() - 1));
                    nextOffset = answer.logStartOffset();
                    noteBounds(answer.highWatermark(), answer.logStartOffset());
                    readableThrough = answer.highWatermark() - 1;
                    items.add(new ReadItem.Moved(split, nextOffset, false));
                    return Outcome.TRIMMED;
                }
                return aheadOfLog(answer.highWatermark(), answer.logStartOffset());
            case NONE:
                break;
            default:
                LOG.warn("the broker answered {} for queue '{}' partition '{}' at offset {}; retrying it next round",
                        answer.error(), split.queue(), split.partition(), requested);
                return Outcome.ENTRY_ERROR;
        }
        if (answer.highWatermark() < seenHighWatermark || answer.logStartOffset() < seenLogStart) {
            return aheadOfLog(answer.highWatermark(), answer.logStartOffset());
        }
        noteBounds(answer.highWatermark(), answer.logStartOffset());
        readableThrough = answer.highWatermark() - 1;
        List<FetchedRecord> records = answer.records();
        if (records.isEmpty()) {
            return Outcome.CAUGHT_UP;
        }
        long expected = requested;
        for (FetchedRecord record : records) {
            if (record.offset() < expected) {
                continue; // never sent twice by a sound broker; never emitted twice here
            }
            if (record.offset() > expected) {
                // Retention trimmed while the read was in flight: the broker skipped offsets silently.
                pendingLost.add(new LostRange(split.partition(), expected, record.offset() - 1));
            }
            items.add(new ReadItem.Record(split, record, takePendingLost()));
            expected = record.offset() + 1;
            lastFetchedTs = record.tsMicros();
            budget.read(record.tsMicros(), record.payload().length);
        }
        nextOffset = expected;
        budget.answered(expected < answer.highWatermark());
        readableThrough = Math.max(readableThrough, expected - 1);
        return Outcome.RECORDS;
    }

    /** Turns the {@code fetch/offsets} answer for {@link #seekQuery()} into the first offset to read. */
    Outcome positioned(OffsetAnswer answer, List<ReadItem> items) {
        if (answer.error() == EntryError.UNKNOWN_TOPIC_OR_PARTITION) {
            return queueGone();
        }
        if (answer.error() != EntryError.NONE) {
            LOG.warn("the broker answered {} when seeking queue '{}' partition '{}' by time; retrying next round",
                    answer.error(), split.queue(), split.partition());
            return Outcome.ENTRY_ERROR;
        }
        // Nothing stamped that late yet: everything appended from now on is.
        nextOffset = answer.offset().orElse(answer.highWatermark());
        noteBounds(answer.highWatermark(), answer.logStartOffset());
        readableThrough = answer.highWatermark() - 1;
        items.add(new ReadItem.Moved(split, nextOffset, true));
        return Outcome.POSITIONED;
    }

    /**
     * This incarnation was replaced (the partition was deleted and re-created): it is never read
     * again, and its offsets not read yet, up to the last one discovery or an answer saw, are lost.
     *
     * @return the lost ranges that must ride on the partition's next record
     */
    List<LostRange> retire(long lastKnownOffset) {
        gone = true;
        long last = readableThrough == UNKNOWN ? lastKnownOffset : Math.max(readableThrough, lastKnownOffset);
        if (nextOffset == PartitionSplit.SEEK_BY_TIME) {
            if (last >= 0) {
                LOG.warn("queue '{}' partition '{}' incarnation {} was replaced before its start was found; "
                        + "its records up to offset {} stamped at or after {} us were never read",
                        split.queue(), split.partition(), split.partitionId(), last, split.skipBelowMicros());
            }
        } else if (nextOffset <= last) {
            pendingLost.add(new LostRange(split.partition(), nextOffset, last));
        }
        return takePendingLost();
    }

    private Outcome queueGone() {
        gone = true;
        LOG.warn("queue '{}' is gone from the broker (UNKNOWN_TOPIC_OR_PARTITION) while reading partition '{}' "
                + "at offset {}: this split stops; the queue is read again if discovery finds it re-created",
                split.queue(), split.partition(), nextOffset);
        return Outcome.GONE;
    }

    private Outcome aheadOfLog(long highWatermark, long logStart) {
        // Offsets restart at 0 in a new incarnation; never read another incarnation's records as ours.
        // Wait for the next pass (not the next round): it lists this incarnation again, or not.
        readableThrough = Math.min(highWatermark - 1, nextOffset - 1);
        if (!warnedAhead) {
            warnedAhead = true;
            LOG.warn("queue '{}' partition '{}' answered bounds [{}, {}) that do not contain offset {} of incarnation {}: "
                    + "the partition was re-created or the broker node is behind; waiting for discovery",
                    split.queue(), split.partition(), logStart, highWatermark, nextOffset, split.partitionId());
        }
        return Outcome.AHEAD_OF_LOG;
    }

    private void noteBounds(long highWatermark, long logStart) {
        seenHighWatermark = Math.max(seenHighWatermark, highWatermark);
        seenLogStart = Math.max(seenLogStart, logStart);
    }

    private List<LostRange> takePendingLost() {
        if (pendingLost.isEmpty()) {
            return List.of();
        }
        List<LostRange> taken = List.copyOf(pendingLost);
        pendingLost.clear();
        return taken;
    }
}
