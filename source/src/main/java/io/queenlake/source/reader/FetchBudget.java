package io.queenlake.source.reader;

/**
 * How many payload bytes one split asks the broker for per fetch: a part of a window of that
 * partition's broker time ({@link #WINDOWS_PER_ASK}), so that a backfill's round brings a slice of
 * every partition and the pause one window ahead of the watermark (docs/ARCHITECTURE.md "Windows") bounds what
 * is in flight, not the broker's answer size. It learns the partition's payload bytes per broker microsecond from the
 * records the split read, counting only whole stamp groups (records of one push share a stamp, and
 * an answer may end inside one).
 */
final class FetchBudget {

    /** The smallest ask: a sparse partition still brings several records per round. */
    static final int MIN_BYTES = 4 << 10;
    /** The reference sink's per-entry budget, the largest ask. */
    static final int MAX_BYTES = 1 << 20;
    /** Before the rate is known: small, so a first round over many partitions stays small. */
    static final int FIRST_BYTES = 16 << 10;
    /**
     * Windows of broker time one ask covers. A split pauses once its last stamp is more than one
     * window above the watermark, and the watermark rises only once a whole round is emitted (it is
     * the minimum over the splits): with half a window per ask the fetcher stays a round or two
     * ahead of the emitter instead of waiting for it, and what is in flight above the watermark
     * stays near one and a half windows.
     */
    static final double WINDOWS_PER_ASK = 0.5;

    private static final long UNSET = Long.MIN_VALUE;

    private final long windowMicros;
    private int bytes = FIRST_BYTES;
    /** The stamp the open sample starts after: its own records are not counted. */
    private long from = UNSET;
    /** The newest stamp whose group is complete (a later stamp or the log's end followed it). */
    private long through = UNSET;
    /** Payload bytes stamped in {@code (from, through]}. */
    private long sampleBytes;
    /** The newest stamp read, and its bytes so far (the answer may have ended inside its group). */
    private long open = UNSET;
    private long openBytes;

    FetchBudget(long windowMs) {
        this.windowMicros = Math.multiplyExact(windowMs, 1000L);
    }

    /** Payload bytes to ask for in the next fetch of this split. */
    int bytes() {
        return bytes;
    }

    /** A record the split read, in log order. */
    void read(long tsMicros, int payloadBytes) {
        if (from == UNSET) {
            // The split may start inside a stamp group: the first stamp only opens the span.
            from = tsMicros;
            through = tsMicros;
            open = tsMicros;
            return;
        }
        if (tsMicros > open) {
            closeOpenGroup();
            open = tsMicros;
        }
        if (tsMicros > from && tsMicros == open) {
            openBytes += payloadBytes;
        }
    }

    /**
     * An answer with records ended; {@code cutShort} says the broker stopped before the end of the
     * log it reported (the byte budget or its record cap), so the newest stamp group may go on.
     */
    void answered(boolean cutShort) {
        if (!cutShort) {
            closeOpenGroup();
        }
        if (through > from) {
            bytes = clamp(sampleBytes * (double) windowMicros * WINDOWS_PER_ASK / (through - from));
            from = through;
            sampleBytes = 0;
        } else if (cutShort) {
            // One stamp group holds more than was asked: grow until a later stamp shows up.
            bytes = clamp(2.0 * bytes);
        }
    }

    private void closeOpenGroup() {
        if (open > from) {
            sampleBytes += openBytes;
            through = open;
        }
        openBytes = 0;
    }

    private static int clamp(double ask) {
        return (int) Math.max(MIN_BYTES, Math.min(MAX_BYTES, Math.ceil(ask)));
    }
}
