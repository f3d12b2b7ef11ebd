package io.queenlake.source.reader;

import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.source.TokenRefusal;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a round that failed as a whole (the broker, not one of its queues) does to the reader: a
 * failure no retry mends fails the task, or the job for good when the token was refused; a
 * retriable one waits out a backoff that grows with the failures in a row. The broker's outage is
 * said once, and once when it answers again, whatever the retries ({@link BrokerOutage}).
 * Fetcher thread only.
 */
final class RoundBackoff {

    // Its line keeps the split reader's logger, as before the backoff had a class of its own.
    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitReader.class);

    private final RetryPolicy policy;
    /** One WARN per outage of the broker, one line when it answers again, whatever the retries. */
    private final BrokerOutage outage;
    private int failuresInARow;

    RoundBackoff(RetryPolicy policy, BrokerOutage outage) {
        this.policy = policy;
        this.outage = outage;
    }

    /** A round went through: the next failure is the first in a row again. */
    void answered() {
        failuresInARow = 0;
        outage.answered();
    }

    /**
     * How long to wait before the next round after {@code e}, an answer the broker did not give.
     *
     * @throws RuntimeException when no retry mends {@code e}
     */
    Duration failed(QueenException e) {
        if (!e.retriable()) {
            // 400, 404...: the client's sentence fails the task; 401 and 403 fail the job for good
            throw TokenRefusal.terminal(e);
        }
        failuresInARow = Math.min(failuresInARow + 1, 1_000);
        Duration delay = policy.delayBefore(failuresInARow + 1, e).orElseThrow(() -> e);
        outage.failed(e);
        LOG.debug("reading from the broker failed, retrying in {} ms (failure {} in a row): {}",
                delay.toMillis(), failuresInARow, e.getMessage());
        return delay;
    }
}
