package io.queenlake.devstack.broker;

/** Wakes long-polling fetches: a counter that every applied write bumps. */
final class WriteSignal {

    private long writes;

    synchronized long current() {
        return writes;
    }

    synchronized void bump() {
        writes++;
        notifyAll();
    }

    /** Waits until a write after {@code seen} or until {@code deadlineNanos} (System.nanoTime) passes. */
    synchronized void awaitAfter(long seen, long deadlineNanos) throws InterruptedException {
        while (writes == seen) {
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            wait(Math.max(1, left / 1_000_000L));
        }
    }
}
