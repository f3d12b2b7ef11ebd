package io.queenlake.devstack.broker;

import java.util.function.LongSupplier;

/**
 * The broker's stamp clock and its safeTime. A stamp is {@code max(now, last + 1)}, so stamps strictly
 * increase across the broker and never go below one issued before (also across a restart, once the
 * journal restored {@code last}). safeTime is the greatest stamp whose write has been applied: it is
 * published only after the write is visible to readers, and stands still while nothing is written.
 */
final class BrokerClock {

    private final LongSupplier nowMicros;
    private long last;
    private volatile long safeTime;

    BrokerClock(LongSupplier nowMicros) {
        this.nowMicros = nowMicros;
    }

    long now() {
        return nowMicros.getAsLong();
    }

    /** The next stamp; the caller holds the broker's write lock. */
    long nextStamp() {
        last = Math.max(now(), last + 1);
        return last;
    }

    long lastStamp() {
        return last;
    }

    /** Makes every write stamped at or below {@code stamp} visible through safeTime. */
    void publish(long stamp) {
        if (stamp > safeTime) {
            safeTime = stamp;
        }
    }

    long safeTime() {
        return safeTime;
    }

    /** Restores a stamp issued in an earlier life, so no later stamp goes below it (published at {@link #boot}). */
    void restore(long stamp) {
        last = Math.max(last, stamp);
    }

    /** Starts serving: safeTime begins at the boot time, or at the last stamp restored if that is later. */
    void boot() {
        last = Math.max(last, now());
        publish(last);
    }
}
