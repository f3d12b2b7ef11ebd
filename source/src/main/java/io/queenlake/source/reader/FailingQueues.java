package io.queenlake.source.reader;

import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queues of a reader whose own fetch call failed while the reader's other queues' calls
 * answered: a broker that fails a whole call for one queue's partitions (a 5xx, an answer that
 * does not decode) must hold back only that queue, as a per-entry error does. Each such queue is
 * fetched in a call of its own, after a backoff of its own (100 ms doubling to 5 s, or the
 * broker's {@code Retry-After}), until one of its calls answers; then it rides in the shared call
 * again.
 */
final class FailingQueues {

    private static final Logger LOG = LoggerFactory.getLogger(FailingQueues.class);

    private final RetryPolicy backoff;
    private final Map<String, Failing> failing = new HashMap<>();

    private static final class Failing {
        int calls;
        long retryAtNanos;
    }

    FailingQueues(RetryPolicy backoff) {
        this.backoff = backoff;
    }

    /**
     * Whether a failed call says something about the queues in it rather than about the broker: an
     * answer (a 5xx, a body that does not decode or does not match). A broker that cannot be reached
     * or times out fails every queue alike, and the reader backs off as a whole.
     */
    static boolean blamesItsQueues(QueenException e) {
        return e.retriable() && e.kind() != QueenException.Kind.TRANSPORT;
    }

    boolean isFailing(String queue) {
        return failing.containsKey(queue);
    }

    /** Whether the failing {@code queue}'s backoff is over, so its own call may be tried now. */
    boolean due(String queue, long nowNanos) {
        Failing f = failing.get(queue);
        return f != null && nowNanos - f.retryAtNanos >= 0;
    }

    void failed(String queue, QueenException e, long nowNanos) {
        Failing f = failing.computeIfAbsent(queue, q -> new Failing());
        f.calls = Math.min(f.calls + 1, 1_000);
        Duration delay = backoff.delayBefore(f.calls + 1, e).orElse(Duration.ofSeconds(5));
        f.retryAtNanos = nowNanos + delay.toNanos();
        if (f.calls == 1) {
            LOG.warn("fetching queue '{}' failed while the reader's other queues were answered ({}); its partitions are"
                    + " fetched in a call of their own from now on, retried in {} ms, and only this queue waits",
                    queue, e.getMessage(), delay.toMillis());
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
}
