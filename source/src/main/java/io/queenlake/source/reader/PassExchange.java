package io.queenlake.source.reader;

import io.queenlake.source.event.PassCompleted;
import java.util.List;
import java.util.Map;

/**
 * The only channel from the reader's task thread to its fetcher thread: the newest complete
 * discovery pass, each queue's frontier the reader last emitted, whether the open windows are over
 * their memory budget, and wake-ups.
 * Every publish bumps a version, so the fetcher can wait (bounded) for news instead of polling
 * idle partitions in a loop.
 */
final class PassExchange {

    /** The newest pass as the fetcher sees it; {@code sequence} counts passes this reader received. */
    record Pass(long sequence, long safeTimeMicros, Map<String, List<PassCompleted.PassPartition>> queues) {}

    private final Object lock = new Object();
    private long version;
    private long wakeUps;
    private Pass latest;
    private volatile Map<String, Long> frontiers = Map.of();
    private volatile boolean overBudget;

    void publishPass(PassCompleted pass) {
        synchronized (lock) {
            long sequence = latest == null ? 1 : latest.sequence() + 1;
            latest = new Pass(sequence, pass.safeTimeMicros(), pass.queues());
            bump();
        }
    }

    /** The queues' frontiers the reader emitted (a copy): the fetcher paces each queue's partitions by its own. */
    void publishFrontiers(Map<String, Long> emitted) {
        synchronized (lock) {
            frontiers = Map.copyOf(emitted);
            bump();
        }
    }

    /** Whether the open windows behind the reader are over their memory budget. */
    void publishOverBudget(boolean over) {
        if (over != overBudget) {
            synchronized (lock) {
                overBudget = over;
                bump();
            }
        }
    }

    /** Ends any wait of the fetcher now (a new split, a resume, a shutdown). */
    void wakeUp() {
        synchronized (lock) {
            wakeUps++;
            bump();
        }
    }

    long wakeUps() {
        synchronized (lock) {
            return wakeUps;
        }
    }

    long version() {
        synchronized (lock) {
            return version;
        }
    }

    /** The newest pass, or null before the first one. */
    Pass latestPass() {
        synchronized (lock) {
            return latest;
        }
    }

    /** The queue's last emitted frontier in microseconds, {@link Long#MIN_VALUE} before the first. */
    long frontierMicros(String queue) {
        Long f = frontiers.get(queue);
        return f == null ? Long.MIN_VALUE : f;
    }

    boolean overBudget() {
        return overBudget;
    }

    /**
     * Waits until something was published after {@code seenVersion}, at most {@code maxWaitMs}.
     *
     * @return true when there is news, false when the wait ran out
     */
    boolean awaitNews(long seenVersion, long maxWaitMs) throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitMs * 1_000_000L;
        synchronized (lock) {
            while (version == seenVersion) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(left / 1_000_000L, (int) (left % 1_000_000L));
            }
            return true;
        }
    }

    /**
     * Sleeps a backoff that only a wake-up ends early (not a pass: a broker asking for
     * {@code Retry-After} is honoured).
     */
    void awaitWakeUp(long seenWakeUps, long maxWaitMs) throws InterruptedException {
        long deadline = System.nanoTime() + maxWaitMs * 1_000_000L;
        synchronized (lock) {
            while (wakeUps == seenWakeUps) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                lock.wait(left / 1_000_000L, (int) (left % 1_000_000L));
            }
        }
    }

    private void bump() {
        version++;
        lock.notifyAll();
    }
}
