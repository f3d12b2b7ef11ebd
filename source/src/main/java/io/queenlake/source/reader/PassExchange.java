package io.queenlake.source.reader;

import io.queenlake.source.event.PassCompleted;
import java.util.HashMap;
import java.util.Map;

/**
 * The only channel from the reader's task thread to its fetcher thread: the newest complete
 * discovery pass, replaced incarnations, the watermark the reader last emitted, and wake-ups.
 * Every publish bumps a version, so the fetcher can wait (bounded) for news instead of polling
 * idle partitions in a loop.
 */
final class PassExchange {

    /** The newest pass as the fetcher sees it; {@code sequence} counts passes this reader received. */
    record Pass(long sequence, long safeTimeMicros, Map<String, Long> lastOffsets) {}

    private final Object lock = new Object();
    private long version;
    private long wakeUps;
    private Pass latest;
    private final Map<String, Long> replaced = new HashMap<>();
    private volatile long watermarkMillis = Long.MIN_VALUE;

    void publishPass(PassCompleted pass) {
        synchronized (lock) {
            long sequence = latest == null ? 1 : latest.sequence() + 1;
            latest = new Pass(sequence, pass.safeTimeMicros(), pass.lastOffsets());
            bump();
        }
    }

    /** An incarnation was replaced; {@code lastOffset} is the last offset discovery saw in it. */
    void publishReplaced(String oldSplitId, long lastOffset) {
        synchronized (lock) {
            replaced.merge(oldSplitId, lastOffset, Math::max);
            bump();
        }
    }

    void publishWatermark(long millis) {
        synchronized (lock) {
            if (millis > watermarkMillis) {
                watermarkMillis = millis;
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

    /** The replaced incarnations published since the last call, by old split id. */
    Map<String, Long> takeReplaced() {
        synchronized (lock) {
            if (replaced.isEmpty()) {
                return Map.of();
            }
            Map<String, Long> taken = Map.copyOf(replaced);
            replaced.clear();
            return taken;
        }
    }

    /** The reader's last emitted watermark in milliseconds, {@link Long#MIN_VALUE} before the first. */
    long watermarkMillis() {
        return watermarkMillis;
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
