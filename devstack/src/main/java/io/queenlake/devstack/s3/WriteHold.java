package io.queenlake.devstack.s3;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes of keys under one prefix that wait, each on its own request thread, until the test
 * releases them: a bucket that is slow for one queue only, held for exactly as long as the test
 * needs (no timer to guess). Every other request is served meanwhile.
 */
public final class WriteHold {

    private final String prefix;
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger held = new AtomicInteger();
    private final CountDownLatch first = new CountDownLatch(1);

    WriteHold(String prefix) {
        this.prefix = prefix;
    }

    /** Waits for the release when {@code key} is under the prefix; at once otherwise (or after the release). */
    void enter(String key) {
        if (key == null || !key.startsWith(prefix) || released.getCount() == 0) {
            return;
        }
        held.incrementAndGet();
        first.countDown();
        try {
            released.await();
        } catch (InterruptedException e) {
            // The server is stopping: answer at once, keep the interrupt for Jetty.
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a write under the prefix arrived (and waits) within {@code timeout}. */
    public boolean awaitHeld(Duration timeout) throws InterruptedException {
        return first.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Writes that arrived under the prefix so far. */
    public int held() {
        return held.get();
    }

    /** Serves the waiting writes and every later one. */
    public void release() {
        released.countDown();
    }
}
