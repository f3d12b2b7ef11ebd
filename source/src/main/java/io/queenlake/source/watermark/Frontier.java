package io.queenlake.source.watermark;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.annotation.Internal;

/**
 * The broker-time frontier of one queue on its reader: per partition split, how far the broker's
 * clock is known to be complete, and from that the queue's frontier, the minimum (docs/ARCHITECTURE.md
 * "Time"). Pure: events in, one answer out; the reader's Flink watermark is computed from the
 * queues' frontiers ({@link #toWatermarkMillis}).
 *
 * <p>Rules, each in broker microseconds:
 *
 * <ul>
 *   <li>a split that has read up to the {@code lastOffset} reported by the last complete discovery
 *       pass (safeTime {@code S}) is caught up: its frontier is {@code S - guard};
 *   <li>a split that is behind has the stamp of the last record it read minus 1 (records of one push
 *       share a stamp), never above {@code S - guard};
 *   <li>a split never read and not caught up has no frontier and holds the queue's;
 *   <li>a queue with no split follows {@code S - guard};
 *   <li>no split's frontier ever moves back: an earlier promise stays true, since every
 *       record stamped at or below an earlier pass's {@code S} was in that pass.
 * </ul>
 */
@Internal
public final class Frontier {

    private final long guardMicros;
    private final Map<String, SplitFrontier> splits = new HashMap<>();
    private long passSafeTime = Long.MIN_VALUE;

    public Frontier(long guardMicros) {
        if (guardMicros < 0) {
            throw new IllegalArgumentException("the safe-time guard must be >= 0 microseconds, got " + guardMicros);
        }
        this.guardMicros = guardMicros;
    }

    /** A split joins this reader; {@code nextOffset} is the first offset it will read. */
    public void addSplit(String splitId, long nextOffset) {
        splits.putIfAbsent(splitId, new SplitFrontier(nextOffset));
    }

    public void removeSplit(String splitId) {
        splits.remove(splitId);
    }

    /**
     * A complete discovery pass: its safeTime (the minimum over its pages) and the last offset of
     * each of this reader's splits it knows ({@code -1} for an empty partition). A split the pass
     * does not mention cannot be caught up against it; it advances only on what it reads.
     */
    public void onPass(long safeTimeMicros, Map<String, Long> lastOffsets) {
        passSafeTime = Math.max(passSafeTime, safeTimeMicros);
        for (Map.Entry<String, SplitFrontier> e : splits.entrySet()) {
            Long lastOffset = lastOffsets.get(e.getKey());
            SplitFrontier split = e.getValue();
            // Caught up is only ever judged against the pass that gave this safeTime.
            split.passLastOffset = lastOffset == null ? Long.MIN_VALUE : lastOffset;
            split.advance(passSafeTime, guardMicros);
        }
    }

    /** Records were read from a split: the stamp of the last one, and the next offset to read. */
    public void onRecords(String splitId, long lastTsMicros, long nextOffset) {
        SplitFrontier split = splits.get(splitId);
        if (split == null) {
            throw new IllegalStateException("records for split " + splitId + " that this reader does not own");
        }
        split.nextOffset = Math.max(split.nextOffset, nextOffset);
        split.lastTs = Math.max(split.lastTs, lastTsMicros);
        split.advance(passSafeTime, guardMicros);
    }

    /** The split's frontier in microseconds, empty while it holds the watermark. */
    public OptionalLong frontierMicros(String splitId) {
        SplitFrontier split = splits.get(splitId);
        return split == null || split.frontier == Long.MIN_VALUE
                ? OptionalLong.empty()
                : OptionalLong.of(split.frontier);
    }

    /**
     * The frontier over every split in microseconds: the minimum of theirs, {@code S - guard} with
     * no split, empty while a split (or the first pass) holds it. Never decreases while the set of
     * splits does not change.
     */
    public OptionalLong frontierMicros() {
        if (splits.isEmpty()) {
            return passSafeTime == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(passSafeTime - guardMicros);
        }
        long frontier = Long.MAX_VALUE;
        for (SplitFrontier split : splits.values()) {
            if (split.frontier == Long.MIN_VALUE) {
                return OptionalLong.empty();
            }
            frontier = Math.min(frontier, split.frontier);
        }
        return OptionalLong.of(frontier);
    }

    /** {@code W = floor((F + 1) / 1000) - 1}: the greatest millisecond wholly at or below {@code F}. */
    public static long toWatermarkMillis(long frontierMicros) {
        return Math.floorDiv(frontierMicros + 1, 1000L) - 1;
    }

    private static final class SplitFrontier {
        long nextOffset;
        long lastTs = Long.MIN_VALUE;
        long passLastOffset = Long.MIN_VALUE;
        long frontier = Long.MIN_VALUE;

        SplitFrontier(long nextOffset) {
            this.nextOffset = nextOffset;
        }

        /**
         * Caught up only against a pass that reported this split's last offset; a split assigned
         * after the pass can still advance on what it read, capped by the pass's safeTime.
         */
        void advance(long passSafeTime, long guard) {
            if (passSafeTime == Long.MIN_VALUE) {
                return; // no complete pass yet: nothing is known about the broker's clock
            }
            long ceiling = passSafeTime - guard;
            long candidate;
            if (passLastOffset != Long.MIN_VALUE && nextOffset > passLastOffset) {
                candidate = ceiling;
            } else if (lastTs != Long.MIN_VALUE) {
                candidate = Math.min(lastTs - 1, ceiling);
            } else {
                return;
            }
            frontier = Math.max(frontier, candidate);
        }
    }
}
