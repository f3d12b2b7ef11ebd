package io.queenlake.source.reader;

import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.FetchBatcher;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.source.event.PassCompleted.PassPartition;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.QueueSplit;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only broker caller on the task side: for every queue split it holds, seeks partitions that
 * start at a time, and fetches, in calls of up to 1024 entries with at most
 * {@code fetchConcurrency} in flight, exactly the partitions that the newest complete pass lists,
 * that are behind what it (or a later answer) reported, and that do not wait for their own
 * queue's frontier, each asking for about half a window of its broker time ({@link FetchBudget}).
 * Nothing is read before the first pass. When nothing is behind it waits (bounded, wakeable) for
 * the next pass instead of fetching idle partitions in a loop.
 *
 * <p>Passes also change the splits: a partition (or incarnation) a pass lists that the split does
 * not hold joins it ({@link ReadItem.Added}); an incarnation a pass replaced leaves it
 * ({@link ReadItem.Retired}) with what of it was not read. Gaps (retention) ride on the next
 * record of the partition. It never emits records, watermarks or metrics about what was emitted.
 *
 * <p>A queue whose partitions make the broker fail a whole call (a 5xx, an answer that does not
 * decode) is found by asking each queue of that call on its own, and from then on waits in calls
 * of its own ({@link FailingQueues}), so it holds back only itself, as a per-entry error does.
 *
 * <p>This class keeps the order of a round; the work of each step lives beside it: each queue
 * split's cursors and what the passes do to them ({@link QueueCursors}), seeks by time
 * ({@link TimeSeeks}), the fetch calls ({@link FetchCalls}), and the wait after a round the broker
 * failed as a whole ({@link RoundBackoff}).
 */
final class QueenSplitReader implements SplitReader<ReadItem, QueueSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitReader.class);

    /** The longest wait for news when nothing is behind; a pass or a wake-up ends it earlier. */
    static final long IDLE_WAIT_MS = 1_000;

    private final TimeSeeks seeks;
    private final FetchCalls calls;
    private final RoundBackoff backoff;
    private final PassExchange exchange;
    private final long maxWindowMs;

    /** Per queue split id, its partitions' cursors by partition split id. */
    private final Map<String, QueueCursors> queues = new LinkedHashMap<>();
    private long seenPass;

    QueenSplitReader(QueenClient client, int fetchConcurrency, PassExchange exchange, QueenSourceMetrics metrics,
            long maxWindowMs) {
        // Retriable failures are retried for as long as they last, 100 ms doubling to 5 s, or as Retry-After
        // says: by the whole reader, and by each failing queue on its own.
        RetryPolicy retries = new RetryPolicy(Integer.MAX_VALUE, Duration.ofMillis(100), Duration.ofSeconds(5));
        this.seeks = new TimeSeeks(client);
        this.calls = new FetchCalls(new FetchBatcher(client, fetchConcurrency), exchange, metrics, maxWindowMs,
                new FailingQueues(retries));
        this.backoff = new RoundBackoff(retries, new BrokerOutage("the source's reader", client.broker()));
        this.exchange = exchange;
        this.maxWindowMs = maxWindowMs;
    }

    @Override
    public RecordsWithSplitIds<ReadItem> fetch() {
        long seenVersion = exchange.version();
        absorbPass();
        ReadBatch batch = new ReadBatch();
        for (QueueCursors q : queues.values()) {
            q.drainPending(batch);
        }
        try {
            seeks.seekWaiting(queues.values(), batch);
            calls.fetchBehind(queues.values(), batch);
            backoff.answered();
        } catch (QueenException e) {
            if (e.kind() == QueenException.Kind.INTERRUPTED) {
                Thread.currentThread().interrupt();
                return batch.build();
            }
            Duration delay = backoff.failed(e);
            sleep(() -> exchange.awaitWakeUp(exchange.wakeUps(), delay.toMillis()));
            return batch.build();
        }
        if (batch.isEmpty()) {
            sleep(() -> exchange.awaitNews(seenVersion, IDLE_WAIT_MS));
        }
        return batch.build();
    }

    @Override
    public void handleSplitsChanges(SplitsChange<QueueSplit> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException("QueenSource readers only ever get splits added, not " + change);
        }
        absorbPass();
        for (QueueSplit split : change.splits()) {
            QueueCursors q = new QueueCursors(split, maxWindowMs);
            QueueCursors previous = queues.put(q.splitId(), q);
            if (previous != null) {
                LOG.info("queue '{}' was given to this reader again; it is read from its split's positions", q.queue());
            }
            PassExchange.Pass pass = exchange.latestPass();
            if (pass != null && pass.queues().containsKey(q.queue())) {
                q.reconcile(pass.queues().get(q.queue()));
            }
        }
    }

    @Override
    public void pauseOrResumeSplits(Collection<QueueSplit> toPause, Collection<QueueSplit> toResume) {
        // No Flink watermark alignment: each queue is paced by its own frontier (FetchCalls), never by another's.
    }

    @Override
    public void wakeUp() {
        exchange.wakeUp();
    }

    @Override
    public void close() {
        queues.clear();
    }

    /** Applies the newest pass the task thread published to every queue it names. */
    private void absorbPass() {
        PassExchange.Pass pass = exchange.latestPass();
        if (pass == null || pass.sequence() == seenPass) {
            return;
        }
        seenPass = pass.sequence();
        for (QueueCursors q : queues.values()) {
            List<PassPartition> rows = pass.queues().get(q.queue());
            if (rows != null) {
                q.reconcile(rows);
            }
        }
    }

    @FunctionalInterface
    private interface Wait {
        void run() throws InterruptedException;
    }

    private static void sleep(Wait wait) {
        try {
            wait.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the fetcher is shutting down
        }
    }

    /** Test hook: the cursor of a partition incarnation this reader reads, or null. */
    SplitCursor cursor(String partitionSplitId) {
        for (QueueCursors q : queues.values()) {
            SplitCursor cursor = q.cursor(partitionSplitId);
            if (cursor != null) {
                return cursor;
            }
        }
        return null;
    }
}
