package io.queenlake.broker.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Spaces the starts of calls: the next starts no earlier than {@code 1 / callsPerSecond} after the
 * previous one started, so a stream of calls stays within the broker's KV write budget instead of
 * spending it in bursts that are answered 429. The clock and the sleep are given, so a test can
 * check the spacing without waiting for it.
 */
final class CallPacing implements CallStream.Turn {

    static final RetryPolicy.Sleeper NANO_SLEEP = delay -> TimeUnit.NANOSECONDS.sleep(delay.toNanos());

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final RetryPolicy.Sleeper sleeper;
    private long lastStart;
    private boolean started;

    CallPacing(double callsPerSecond, LongSupplier nanoTime, RetryPolicy.Sleeper sleeper) {
        if (!(callsPerSecond > 0)) {
            throw new IllegalArgumentException("KV write calls per second must be above 0, was " + callsPerSecond);
        }
        this.intervalNanos = (long) Math.ceil(1e9 / callsPerSecond);
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
    }

    /** Called by one thread only: the stream's. */
    @Override
    public void await() throws InterruptedException {
        long now = nanoTime.getAsLong();
        // A loop, since a sleep may end a little early (rounded to milliseconds).
        while (started && now - lastStart < intervalNanos) {
            sleeper.sleep(Duration.ofNanos(intervalNanos - (now - lastStart)));
            now = nanoTime.getAsLong();
        }
        lastStart = now;
        started = true;
    }
}
