package io.queenlake.source.reader;

import io.queenlake.broker.client.BrokerOutage;
import io.queenlake.broker.client.FetchBatcher;
import io.queenlake.broker.client.FetchEntry;
import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.OffsetAnswer;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.source.TokenRefusal;
import io.queenlake.source.event.PassCompleted.PassPartition;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.QueueSplit;
import java.time.Duration;
import java.util.ArrayList;
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
 */
final class QueenSplitReader implements SplitReader<ReadItem, QueueSplit> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitReader.class);

    /** Payload bytes one round may ask for over all entries, so 10,000 partitions cannot ask for 10 GiB. */
    static final long ROUND_BUDGET_BYTES = 64L << 20;
    /** The longest wait for news when nothing is behind; a pass or a wake-up ends it earlier. */
    static final long IDLE_WAIT_MS = 1_000;

    private final QueenClient client;
    private final FetchBatcher batcher;
    private final PassExchange exchange;
    private final QueenSourceMetrics metrics;
    private final long maxWindowMs;
    /** Retriable failures are retried for as long as they last, 100 ms doubling to 5 s, or as Retry-After says. */
    private final RetryPolicy backoff = new RetryPolicy(Integer.MAX_VALUE, Duration.ofMillis(100), Duration.ofSeconds(5));
    private int failuresInARow;
    /** One WARN per outage of the broker, one line when it answers again, whatever the retries. */
    private final BrokerOutage outage;
    private final FailingQueues failingQueues = new FailingQueues(backoff);

    /** Per queue split id, its partitions' cursors by partition split id. */
    private final Map<String, QueueCursors> queues = new LinkedHashMap<>();
    private long seenPass;

    QueenSplitReader(QueenClient client, int fetchConcurrency, PassExchange exchange, QueenSourceMetrics metrics,
            long maxWindowMs) {
        this.client = client;
        this.batcher = new FetchBatcher(client, fetchConcurrency);
        this.outage = new BrokerOutage("the source's reader", client.broker());
        this.exchange = exchange;
        this.metrics = metrics;
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
            seekWaiting(batch);
            fetchBehind(batch);
            failuresInARow = 0;
            outage.answered();
        } catch (QueenException e) {
            if (e.kind() == QueenException.Kind.INTERRUPTED) {
                Thread.currentThread().interrupt();
                return batch.build();
            }
            if (!e.retriable()) {
                // 400, 404...: the client's sentence fails the task; 401 and 403 fail the job for good
                throw TokenRefusal.terminal(e);
            }
            failuresInARow = Math.min(failuresInARow + 1, 1_000);
            Duration delay = backoff.delayBefore(failuresInARow + 1, e).orElseThrow(() -> e);
            outage.failed(e);
            LOG.debug("reading from the broker failed, retrying in {} ms (failure {} in a row): {}",
                    delay.toMillis(), failuresInARow, e.getMessage());
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
        // No Flink watermark alignment: each queue is paced by its own frontier (fetchBehind), never by another's.
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

    private void seekWaiting(ReadBatch batch) {
        List<SplitCursor> waiting = new ArrayList<>();
        List<QueueCursors> owners = new ArrayList<>();
        for (QueueCursors q : queues.values()) {
            for (SplitCursor cursor : q.cursors()) {
                if (cursor.readyToSeek()) {
                    waiting.add(cursor);
                    owners.add(q);
                }
            }
        }
        for (int from = 0; from < waiting.size(); from += FetchRequest.MAX_ENTRIES) {
            int to = Math.min(waiting.size(), from + FetchRequest.MAX_ENTRIES);
            List<OffsetQuery> queries = new ArrayList<>(to - from);
            for (int i = from; i < to; i++) {
                queries.add(waiting.get(i).seekQuery());
            }
            List<OffsetAnswer> answers = client.fetchOffsets(queries);
            for (int i = from; i < to; i++) {
                SplitCursor cursor = waiting.get(i);
                List<ReadItem> items = new ArrayList<>(1);
                SplitCursor.Outcome outcome = cursor.positioned(answers.get(i - from), items);
                QueueCursors q = owners.get(i);
                batch.add(q.splitId(), items);
                q.retireIfGone(cursor, batch);
                LOG.debug("partition {} seeks {} us: {} at offset {}", cursor.splitId(), cursor.split().skipBelowMicros(),
                        outcome, cursor.nextOffset());
            }
        }
    }

    private void fetchBehind(ReadBatch batch) {
        boolean overBudget = exchange.overBudget();
        long windowMicros = maxWindowMs * 1000L;
        long now = System.nanoTime();
        // One shared call for the queues whose calls are answered, one call of its own per failing queue.
        Fetch shared = new Fetch();
        Map<String, Fetch> alone = new LinkedHashMap<>();
        int paused = 0;
        for (QueueCursors q : queues.values()) {
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
                    (failing ? alone.computeIfAbsent(q.queue(), name -> new Fetch()) : shared).add(cursor, q);
                }
            }
        }
        metrics.setPausedSplits(paused);
        int behind = shared.size() + alone.values().stream().mapToInt(Fetch::size).sum();
        if (behind > 0) {
            // Each partition asks for a part of a window of its own broker time; the round's cap only binds when
            // thousands of partitions are behind at once.
            int capBytes = (int) Math.max(FetchBudget.MIN_BYTES, Math.min(FetchBudget.MAX_BYTES, ROUND_BUDGET_BYTES / behind));
            if (shared.size() > 0) {
                fetchShared(shared, capBytes, now, batch);
            }
            for (Map.Entry<String, Fetch> one : alone.entrySet()) {
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
     */
    private void fetchShared(Fetch shared, int capBytes, long now, ReadBatch batch) {
        Map<String, Fetch> byQueue = shared.byQueue();
        if (byQueue.size() > 1 && failingQueues.splitting(now)) {
            fetchQueueByQueue(byQueue, capBytes, batch, null);
            return;
        }
        try {
            absorb(shared, batcher.fetchAll(shared.entries(capBytes)), batch);
        } catch (QueenException e) {
            metrics.fetchCall(QueenSourceMetrics.RESULT_FAILED);
            if (!FailingQueues.blamesItsQueues(e)) {
                throw e;
            }
            if (byQueue.size() == 1) {
                if (queues.size() == 1) {
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
    private void fetchQueueByQueue(Map<String, Fetch> byQueue, int capBytes, ReadBatch batch, QueenException sharedFailure) {
        Map<String, QueenException> failed = new LinkedHashMap<>();
        for (Map.Entry<String, Fetch> one : byQueue.entrySet()) {
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
    private QueenException fetchAlone(Fetch fetch, int capBytes, ReadBatch batch) {
        String queue = fetch.owners.get(0).queue();
        try {
            absorb(fetch, batcher.fetchAll(fetch.entries(capBytes)), batch);
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

    /** The partitions one fetch asks for, with the queue of each. */
    private static final class Fetch {
        final List<SplitCursor> cursors = new ArrayList<>();
        final List<QueueCursors> owners = new ArrayList<>();

        void add(SplitCursor cursor, QueueCursors owner) {
            cursors.add(cursor);
            owners.add(owner);
        }

        int size() {
            return cursors.size();
        }

        List<FetchEntry> entries(int capBytes) {
            List<FetchEntry> entries = new ArrayList<>(cursors.size());
            cursors.forEach(c -> entries.add(c.entry(capBytes)));
            return entries;
        }

        /** The same partitions, one fetch per queue, in this fetch's order. */
        Map<String, Fetch> byQueue() {
            Map<String, Fetch> byQueue = new LinkedHashMap<>();
            for (int i = 0; i < cursors.size(); i++) {
                byQueue.computeIfAbsent(owners.get(i).queue(), q -> new Fetch()).add(cursors.get(i), owners.get(i));
            }
            return byQueue;
        }
    }

    /** Turns a fetch's answers (in its entries' order) into items, counting its calls by result. */
    private void absorb(Fetch fetch, List<FetchedPartition> answers, ReadBatch batch) {
        for (int call = 0; call * FetchRequest.MAX_ENTRIES < fetch.size(); call++) {
            int from = call * FetchRequest.MAX_ENTRIES;
            int to = Math.min(fetch.size(), from + FetchRequest.MAX_ENTRIES);
            boolean anyRecords = false;
            boolean anyError = false;
            for (int i = from; i < to; i++) {
                SplitCursor cursor = fetch.cursors.get(i);
                QueueCursors q = fetch.owners.get(i);
                FetchedPartition answer = answers.get(i);
                List<ReadItem> items = new ArrayList<>(answer.records().size());
                SplitCursor.Outcome outcome = cursor.absorb(answer, items);
                anyRecords |= outcome == SplitCursor.Outcome.RECORDS;
                anyError |= outcome == SplitCursor.Outcome.ENTRY_ERROR || outcome == SplitCursor.Outcome.GONE;
                if (outcome == SplitCursor.Outcome.RECORDS) {
                    long bytes = 0;
                    int records = 0;
                    for (ReadItem item : items) {
                        if (item instanceof ReadItem.Record r) {
                            FetchedRecord record = r.record();
                            bytes += record.payload().length;
                            records++;
                        }
                    }
                    metrics.fetched(q.queue(), records, bytes);
                }
                batch.add(q.splitId(), items);
                q.retireIfGone(cursor, batch);
            }
            metrics.fetchCall(anyRecords ? QueenSourceMetrics.RESULT_RECORDS
                    : anyError ? QueenSourceMetrics.RESULT_ENTRY_ERROR : QueenSourceMetrics.RESULT_EMPTY);
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
