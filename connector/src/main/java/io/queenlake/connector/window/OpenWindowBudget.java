package io.queenlake.connector.window;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes the open windows of this task manager hold ({@code queen.s3.memory-mb}, the reference
 * sink's node-wide budget): one total per JVM, shared by every window operator instance in it.
 *
 * <p>Each operator keeps an {@link Account} on its own task thread and publishes its changes to the
 * shared total only in batches of {@link #PUBLISH_BATCH} bytes, so the per-record cost is two
 * additions and a comparison, not a contended atomic. {@link Account#overBudget()} adds the
 * operator's own unpublished change to the shared total, so its own share is always exact; the other
 * operators' shares lag by less than one batch each.
 *
 * <p>A record weighs the bytes its run keeps of it (its JSONL line or Parquet row, {@link OpenRuns})
 * plus {@link #RECORD_OVERHEAD} bytes for its columns (offset, stamp, end and weight: 28 bytes,
 * with room for the arrays' doubling), so that many small records are bounded too.
 */
final class OpenWindowBudget {

    /** Changes smaller than this stay local to the operator. */
    static final long PUBLISH_BATCH = 256 * 1024;
    /** The heap an open record takes beside the bytes kept of it (an estimate). */
    static final long RECORD_OVERHEAD = 64;

    private static final AtomicLong TOTAL = new AtomicLong();

    private OpenWindowBudget() {}

    /** What the open windows of this JVM hold, as published (for tests and diagnostics). */
    static long published() {
        return TOTAL.get();
    }

    /** The budget weight of an open record whose run keeps {@code keptBytes} of it. */
    static long weight(long keptBytes) {
        return keptBytes + RECORD_OVERHEAD;
    }

    /** A new operator's share of the JVM's budget of {@code limitBytes}. */
    static Account account(long limitBytes) {
        return new Account(limitBytes);
    }

    /** One operator instance's share; used from its task thread only. */
    static final class Account {
        private final long limit;
        /** What this operator holds now. */
        private long held;
        /** What this operator has added to the shared total so far. */
        private long published;

        private Account(long limit) {
            this.limit = limit;
        }

        /** {@code bytes} more (or, negative, fewer) are held in open windows. */
        void add(long bytes) {
            held += bytes;
            long change = held - published;
            if (change >= PUBLISH_BATCH || change <= -PUBLISH_BATCH) {
                TOTAL.addAndGet(change);
                published = held;
            }
        }

        /** What this operator holds in open windows. */
        long held() {
            return held;
        }

        /** Whether the open windows of the JVM hold more than the budget. */
        boolean overBudget() {
            return TOTAL.get() - published + held > limit;
        }

        /** Gives this operator's share back (the operator closes): nothing of it stays in the total. */
        void close() {
            TOTAL.addAndGet(-published);
            published = 0;
            held = 0;
        }
    }
}
