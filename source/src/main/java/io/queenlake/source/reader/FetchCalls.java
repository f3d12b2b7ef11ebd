package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchBatcher;
import io.queenlake.broker.client.QueenException;
import io.queenlake.source.metrics.QueenSourceMetrics;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which partitions a round fetches and in which calls: those behind, unless their queue's
 * frontier or its own backoff holds them; one shared call for the queues whose calls are
 * answered, one call of its own per failing queue ({@link FailingQueues}), and queue by queue
 * when the broker fails a shared call over an answer. A failure that is the broker's, not a
 * queue's, is thrown for the reader to back off as a whole. Fetcher thread only.
 */
final class FetchCalls {

    /** Payload bytes one round may ask for over all entries, so 10,000 partitions cannot ask for 10 GiB. */
    static final long ROUND_BUDGET_BYTES = 64L << 20;

    private final FetchBatcher batcher;
    private final PassExchange exchange;
    private final QueenSourceMetrics metrics;
    private final long maxWindowMs;
    private final FailingQueues failingQueues;

    FetchCalls(FetchBatcher batcher, PassExchange exchange, QueenSourceMetrics metrics, long maxWindowMs,
            FailingQueues failingQueues) {
        this.batcher = batcher;
        this.exchange = exchange;
        this.metrics = metrics;
        this.maxWindowMs = maxWindowMs;
        this.failingQueues = failingQueues;
    }

    /** Fetches every partition of {@code queues} (all the reader holds) that is behind and may be read now. */
    void fetchBehind(Collection<QueueCursors> queues, ReadBatch batch) {
        boolean overBudget = exchange.overBudget();
        long windowMicros = maxWindowMs * 1000L;
        long now = System.nanoTime();
        // One shared call for the queues whose calls are answered, one call of its own per failing queue.
        FetchCall shared = new FetchCall();
        Map<String, FetchCall> alone = new LinkedHashMap<>();
        int paused = 0;
        for (QueueCursors q : queues) {
            boolean failing = failingQueues.isFailing(q.queue());
            boolean waiting = failing && !failingQueues.due(q.queue(), now);
            long frontier = exchange.frontierMicros(q.queue());
            for (SplitCursor cursor : q.cursors()) {
                if (!cursor.behind()) {
                    continue;
                }
                if (waiting || cursor.waitsForFrontier(frontier, windowMicros, overBudget)) {
                    paused++;
                } else {
                    (failing ? alone.computeIfAbsent(q.queue(), name -> new FetchCall()) : shared).add(cursor, q);
                }
            }
        }
        metrics.setPausedSplits(paused);
        int behind = shared.size() + alone.values().stream().mapToInt(FetchCall::size).sum();
        if (behind > 0) {
            // Each partition asks for a part of a window of its own broker time; the round's cap only binds when
            // thousands of partitions are behind at once.
            int capBytes = (int) Math.max(FetchBudget.MIN_BYTES, Math.min(FetchBudget.MAX_BYTES, ROUND_BUDGET_BYTES / behind));
            if (shared.size() > 0) {
                fetchShared(shared, capBytes, now, batch, queues);
            }
            for (Map.Entry<String, FetchCall> one : alone.entrySet()) {
                if (fetchAlone(one.getValue(), capBytes, batch) == null) {
                    failingQueues.answered(one.getKey());
                }
            }
        }
        metrics.setFailingQueues(failingQueues.size());
    }

    /**
     * The shared call. When the broker fails it over an answer (not the connection, not a request
     * to slow down), each of its queues is asked again in a call of its own: those answered go on,
     * those that fail again wait on their own ({@link FailingQueues}). Only when every queue of a
     * call of several fails is it the broker, and the reader backs off as a whole.
     *
     * @param readerQueues every queue the reader holds, whether behind or not
     */
    private void fetchShared(FetchCall shared, int capBytes, long now, ReadBatch batch,
            Collection<QueueCursors> readerQueues) {
        Map<String, FetchCall> byQueue = shared.byQueue();
        if (byQueue.size() > 1 && failingQueues.splitting(now)) {
            fetchQueueByQueue(byQueue, capBytes, batch, null);
            return;
        }
        try {
            shared.absorb(batcher.fetchAll(shared.entries(capBytes)), batch, metrics);
        } catch (QueenException e) {
            metrics.fetchCall(QueenSourceMetrics.RESULT_FAILED);
            if (!FailingQueues.blamesItsQueues(e)) {
                throw e;
            }
            if (byQueue.size() == 1) {
                if (readerQueues.size() == 1) {
                    throw e; // the reader's only queue: its backoff is the reader's
                }
                // The reader's other queues have nothing to fetch now; they must not wait out this one's backoff.
                failingQueues.failed(byQueue.keySet().iterator().next(), e);
                return;
            }
            fetchQueueByQueue(byQueue, capBytes, batch, e);
        }
    }

    /** Each queue in a call of its own, after {@code sharedFailure} (null: the reader splits its calls for now). */
    private void fetchQueueByQueue(Map<String, FetchCall> byQueue, int capBytes, ReadBatch batch,
            QueenException sharedFailure) {
        Map<String, QueenException> failed = new LinkedHashMap<>();
        for (Map.Entry<String, FetchCall> one : byQueue.entrySet()) {
            QueenException failure = fetchAlone(one.getValue(), capBytes, batch);
            if (failure != null) {
                failed.put(one.getKey(), failure);
            }
        }
        if (failed.size() == byQueue.size()) {
            throw sharedFailure != null ? sharedFailure : failed.values().iterator().next();
        }
        failed.forEach(failingQueues::failed);
        if (failed.isEmpty() && sharedFailure != null) {
            failingQueues.sharedCallFailed(sharedFailure);
        }
    }

    /**
     * One queue's partitions in a call of their own; the failure when the broker failed it over an
     * answer, null when it was answered. Any other failure is thrown.
     */
    private QueenException fetchAlone(FetchCall fetch, int capBytes, ReadBatch batch) {
        String queue = fetch.firstQueue();
        try {
            fetch.absorb(batcher.fetchAll(fetch.entries(capBytes)), batch, metrics);
            return null;
        } catch (QueenException e) {
            metrics.fetchCall(QueenSourceMetrics.RESULT_FAILED);
            if (!FailingQueues.blamesItsQueues(e)) {
                throw e;
            }
            if (failingQueues.isFailing(queue)) {
                failingQueues.failed(queue, e);
            }
            return e;
        }
    }
}
