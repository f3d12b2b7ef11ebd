package io.queenlake.source.reader;

import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.watermark.Frontier;
import java.util.OptionalLong;

/**
 * The reader's {@link Frontier} on the task thread, and when its watermark is emitted. Records
 * advance it as they are emitted (never as they are fetched), passes and the split life cycle as
 * they happen; the watermark is recomputed at most every {@value #RECOMPUTE_EVERY_MS} ms while
 * records stream (the frontier walks every split) and at once when the reader runs dry. What it
 * emitted goes to the fetcher thread, which pauses splits one window ahead of it: in a backfill
 * the fetcher waits on this watermark, so it is recomputed often (a walk of 10,000 splits costs
 * well under a millisecond; at 50 ms the read path ran at about two thirds of its speed).
 *
 * <p>Before the frontier gives a watermark the reader emits {@link #NOTHING_YET} once, so that
 * Flink's watermark alignment counts it from its first poll (see there).
 */
final class ReaderWatermarks {

    static final long RECOMPUTE_EVERY_MS = 10;

    /**
     * The watermark a reader emits before it knows one: it promises nothing a broker stamp could
     * break. Flink's watermark alignment leaves out a reader that has emitted no watermark, and each
     * reader paces its splits by its own watermark only, so while one reader waits for its first
     * records (a slow first fetch, a stalled broker) the others would read on unchecked, and all they
     * emit would wait in the windows downstream, whose watermark this reader holds at the bottom.
     * Emitted, it is reported, and the others pause one window above it until this reader catches up.
     */
    static final long NOTHING_YET = Long.MIN_VALUE + 1;

    private final Frontier frontier;
    private final PassExchange exchange;
    private final QueenSourceMetrics metrics;
    private long emitted = Long.MIN_VALUE;
    /** Whether {@link #NOTHING_YET} went out, so Flink's alignment counts this reader. */
    private boolean counted;
    private boolean dirty;
    private long lastComputedNanos = System.nanoTime();

    ReaderWatermarks(Frontier frontier, PassExchange exchange, QueenSourceMetrics metrics) {
        this.frontier = frontier;
        this.exchange = exchange;
        this.metrics = metrics;
    }

    void addSplit(String splitId, long nextOffset) {
        frontier.addSplit(splitId, nextOffset);
        dirty = true;
    }

    void removeSplit(String splitId) {
        frontier.removeSplit(splitId);
        dirty = true;
    }

    void onPass(PassCompleted pass) {
        frontier.onPass(pass.safeTimeMicros(), pass.lastOffsets());
        metrics.onPass(pass.safeTimeMicros());
        dirty = true;
    }

    /** A record was emitted (or dropped below the split's start), or the split moved without one. */
    void onRead(String splitId, long tsMicros, long nextOffset) {
        frontier.onRecords(splitId, tsMicros, nextOffset);
        dirty = true;
    }

    /** Whether the frontier changed since the watermark was last computed. */
    boolean pending() {
        return dirty;
    }

    /**
     * The watermark to emit now, if it rose; {@code streaming} says records are still flowing, so
     * the frontier may be walked less often.
     */
    OptionalLong advance(boolean streaming) {
        if (!counted) {
            counted = true;
            return OptionalLong.of(NOTHING_YET); // not published: the fetcher paces by real watermarks only
        }
        if (!dirty) {
            return OptionalLong.empty();
        }
        long now = System.nanoTime();
        if (streaming && now - lastComputedNanos < RECOMPUTE_EVERY_MS * 1_000_000L) {
            return OptionalLong.empty();
        }
        dirty = false;
        lastComputedNanos = now;
        OptionalLong watermark = frontier.watermarkMillis();
        if (watermark.isEmpty() || watermark.getAsLong() <= emitted) {
            return OptionalLong.empty();
        }
        emitted = watermark.getAsLong();
        metrics.onWatermark(emitted);
        exchange.publishWatermark(emitted);
        return watermark;
    }

    long emitted() {
        return emitted;
    }
}
