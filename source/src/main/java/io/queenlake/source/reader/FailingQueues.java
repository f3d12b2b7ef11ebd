package io.queenlake.source.reader;

import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queues of a reader whose own fetch call failed while the reader's other queues are fine: a
 * broker that fails a whole call for one queue's partitions (a 5xx, an answer that does not
 * decode) must hold back only that queue, as a per-entry error does. Each such queue is fetched in
 * a call of its own, after a backoff of its own (100 ms doubling to 5 s, or the broker's
 * {@code Retry-After}), until one of its calls answers; then it rides in the shared call again.
 * Also remembers a shared call the broker fails while it answers every queue alone (an answer
 * too large for something between them, say), so the reader does not pay a failing call each round.
 */
final class FailingQueues {

    private static final Logger LOG = LoggerFactory.getLogger(FailingQueues.class);
    /** How long the reader fetches queue by queue after a shared call failed that each queue's call answered. */
    static final Duration SPLIT_FOR = Duration.ofSeconds(60);

    private final RetryPolicy backoff;
    private final Map<String, Failing> failing = new HashMap<>();
    private long splitUntilNanos;
    private boolean split;

    private static final class Failing {
        int calls;
        long retryAtNanos;
    }

    FailingQueues(RetryPolicy backoff) {
        this.backoff = backoff;
    }

    /**
     * Whether a failed call may say something about the queues in it rather than about the broker:
     * a 5xx without {@code Retry-After}, a body that does not decode or does not match. A broker
     * that cannot be reached, times out, or asks to slow down (408, 429, {@code Retry-After}) fails
     * every queue alike, and the reader backs off as a whole.
     */
    static boolean blamesItsQueues(QueenException e) {
        if (!e.retriable() || e.kind() == QueenException.Kind.TRANSPORT || e.retryAfterSeconds().isPresent()) {
            return false;
        }
        return e.kind() != QueenException.Kind.STATUS || e.status() >= 500;
    }

    boolean isFailing(String queue) {
        return failing.containsKey(queue);
    }

    int size() {
        return failing.size();
    }

    /** Whether the failing {@code queue}'s backoff is over, so its own call may be tried now. */
    boolean due(String queue, long nowNanos) {
        Failing f = failing.get(queue);
        return f != null && nowNanos - f.retryAtNanos >= 0;
    }

    /** {@code queue}'s own call failed with {@code e}, at {@code System.nanoTime()} now. */
    void failed(String queue, QueenException e) {
        Failing f = failing.computeIfAbsent(queue, q -> new Failing());
        f.calls = Math.min(f.calls + 1, 1_000);
        Duration delay = backoff.delayBefore(f.calls + 1, e).orElse(Duration.ofSeconds(5));
        f.retryAtNanos = System.nanoTime() + delay.toNanos();
        if (f.calls == 1) {
            LOG.warn("fetching queue '{}' failed in a call of its own ({}); it is fetched apart from the reader's other"
                    + " queues from now on, retried in {} ms, and only this queue waits", queue, e.getMessage(),
                    delay.toMillis());
        } else {
            LOG.debug("fetching queue '{}' failed again (call {} in a row), retrying in {} ms: {}", queue, f.calls,
                    delay.toMillis(), e.getMessage());
        }
    }

    void answered(String queue) {
        Failing f = failing.remove(queue);
        if (f != null) {
            LOG.info("fetching queue '{}' works again after {} failed calls; it rides in the reader's shared call again",
                    queue, f.calls);
        }
    }

    /** Whether the reader fetches each queue in a call of its own for now ({@link #sharedCallFailed}). */
    boolean splitting(long nowNanos) {
        if (split && nowNanos - splitUntilNanos >= 0) {
            split = false;
            LOG.info("fetching the reader's queues in one shared call again");
        }
        return split;
    }

    /** The shared call failed with {@code e} though each of its queues' own calls was answered. */
    void sharedCallFailed(QueenException e) {
        if (!split) {
            LOG.warn("the broker failed the reader's shared fetch call ({}) but answered each queue's own call; the"
                    + " queues are fetched in calls of their own for the next {} s", e.getMessage(), SPLIT_FOR.toSeconds());
        }
        split = true;
        splitUntilNanos = System.nanoTime() + SPLIT_FOR.toNanos();
    }
}
