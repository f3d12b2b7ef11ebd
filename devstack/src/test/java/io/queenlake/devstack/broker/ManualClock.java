package io.queenlake.devstack.broker;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A broker clock only the test moves, in microseconds. */
final class ManualClock implements LongSupplier {

    static final long START = 1_790_000_000_000_000L;

    private final AtomicLong now = new AtomicLong(START);

    @Override
    public long getAsLong() {
        return now.get();
    }

    void advanceSeconds(long seconds) {
        now.addAndGet(seconds * 1_000_000L);
    }

    void advanceMicros(long micros) {
        now.addAndGet(micros);
    }
}
