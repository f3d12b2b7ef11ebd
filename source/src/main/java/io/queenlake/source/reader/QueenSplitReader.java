package io.queenlake.source.reader;

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
import io.queenlake.format.model.LostRange;
import io.queenlake.source.TokenRefusal;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
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
 * The only broker caller on the task side: seeks splits that start at a time, and fetches, in
 * calls of up to 1024 entries with at most {@code fetchConcurrency} in flight, exactly the splits
 * that the newest complete pass lists, that are behind what it (or a later answer) reported, and
 * that are not paused, each asking for about half a window of its broker time ({@link FetchBudget}).
 * Nothing is read before the first pass. When nothing is behind it waits
 * (bounded, wakeable) for the next pass instead of fetching idle partitions in a loop.
 *
 * <p>It finds gaps (retention, replaced incarnations) and hands them over with the next record of
 * the partition; it never emits records, watermarks or metrics about what was emitted.
 */
final class QueenSplitReader implements SplitReader<ReadItem, PartitionSplit> {

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

    private final Map<String, SplitCursor> cursors = new LinkedHashMap<>();
    /** Gaps of replaced incarnations, by partition, until the new incarnation's split arrives here. */
    private final Map<PartitionKey, List<LostRange>> inherited = new HashMap<>();
    private final List<String> finishing = new ArrayList<>();
    private long seenPass;

    QueenSplitReader(QueenClient client, int fetchConcurrency, PassExchange exchange, QueenSourceMetrics metrics,
            long maxWindowMs) {
        this.client = client;
        this.batcher = new FetchBatcher(client, fetchConcurrency);
        this.exchange = exchange;
        this.metrics = metrics;
        this.maxWindowMs = maxWindowMs;
    }

    private record PartitionKey(String queue, String partition) {
        static PartitionKey of(PartitionSplit split) {
            return new PartitionKey(split.queue(), split.partition());
        }
    }

    @Override
    public RecordsWithSplitIds<ReadItem> fetch() {
        long seenVersion = exchange.version();
        absorbNews();
        ReadBatch batch = new ReadBatch();
        finishing.forEach(batch::finish);
        finishing.clear();
        try {
            seekWaiting(batch);
            fetchBehind(batch);
            failuresInARow = 0;
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
            LOG.warn("reading from the broker failed, retrying in {} ms (failure {} in a row): {}",
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
    public void handleSplitsChanges(SplitsChange<PartitionSplit> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException("QueenSource readers only ever get splits added, not " + change);
        }
        absorbNews();
        // By partition, so that a reader given 10,000 splits at once does not scan every cursor for each
        // one: that quadratic scan held back a wide queue's first record by seconds.
        Map<PartitionKey, List<SplitCursor>> byPartition = new HashMap<>();
        for (SplitCursor cursor : cursors.values()) {
            byPartition.computeIfAbsent(PartitionKey.of(cursor.split()), k -> new ArrayList<>(1)).add(cursor);
        }
        for (PartitionSplit split : change.splits()) {
            PartitionKey key = PartitionKey.of(split);
            List<LostRange> lost = new ArrayList<>(inherited.getOrDefault(key, List.of()));
            inherited.remove(key);
            List<SplitCursor> samePartition = byPartition.computeIfAbsent(key, k -> new ArrayList<>(1));
            for (SplitCursor old : List.copyOf(samePartition)) {
                if (!old.split().partitionId().equals(split.partitionId())) {
                    // A new incarnation with no PartitionReplaced before it: what we saw of the old one is all we know.
                    lost.addAll(retire(old, SplitCursor.UNKNOWN));
                    samePartition.remove(old);
                }
            }
            SplitCursor cursor = new SplitCursor(split, maxWindowMs);
            cursor.inheritLost(lost);
            PassExchange.Pass pass = exchange.latestPass();
            if (pass != null) {
                cursor.onPass(pass.lastOffsets().get(cursor.splitId()));
            }
            SplitCursor previous = cursors.put(cursor.splitId(), cursor);
            if (previous != null) {
                samePartition.remove(previous);
            }
            samePartition.add(cursor);
        }
    }

    @Override
    public void pauseOrResumeSplits(Collection<PartitionSplit> toPause, Collection<PartitionSplit> toResume) {
        for (PartitionSplit split : toPause) {
            SplitCursor cursor = cursors.get(split.splitId());
            if (cursor != null) {
                cursor.pauseForAlignment(true);
            }
        }
        for (PartitionSplit split : toResume) {
            SplitCursor cursor = cursors.get(split.splitId());
            if (cursor != null) {
                cursor.pauseForAlignment(false);
            }
        }
    }

    @Override
    public void wakeUp() {
        exchange.wakeUp();
    }

    @Override
    public void close() {
        cursors.clear();
    }

    /** Applies the newest pass and any replaced incarnations the task thread published. */
    private void absorbNews() {
        PassExchange.Pass pass = exchange.latestPass();
        if (pass != null && pass.sequence() != seenPass) {
            seenPass = pass.sequence();
            for (SplitCursor cursor : cursors.values()) {
                cursor.onPass(pass.lastOffsets().get(cursor.splitId()));
            }
        }
        for (Map.Entry<String, Long> e : exchange.takeReplaced().entrySet()) {
            SplitCursor old = cursors.get(e.getKey());
            if (old != null) {
                inherited.computeIfAbsent(PartitionKey.of(old.split()), k -> new ArrayList<>())
                        .addAll(retire(old, e.getValue()));
            }
        }
    }

    private List<LostRange> retire(SplitCursor old, long lastKnownOffset) {
        List<LostRange> lost = old.retire(lastKnownOffset);
        cursors.remove(old.splitId());
        finishing.add(old.splitId());
        LOG.info("queue '{}' partition '{}': incarnation {} was replaced; it stops at offset {}{}",
                old.split().queue(), old.split().partition(), old.split().partitionId(), old.nextOffset(),
                lost.isEmpty() ? "" : ", unread offsets " + lost + " ride on the new incarnation's first record");
        return lost;
    }

    private void seekWaiting(ReadBatch batch) {
        List<SplitCursor> waiting = new ArrayList<>();
        for (SplitCursor cursor : cursors.values()) {
            if (cursor.readyToSeek()) {
                waiting.add(cursor);
            }
        }
        for (int from = 0; from < waiting.size(); from += FetchRequest.MAX_ENTRIES) {
            List<SplitCursor> chunk = waiting.subList(from, Math.min(waiting.size(), from + FetchRequest.MAX_ENTRIES));
            List<OffsetQuery> queries = new ArrayList<>(chunk.size());
            chunk.forEach(c -> queries.add(c.seekQuery()));
            List<OffsetAnswer> answers = client.fetchOffsets(queries);
            for (int i = 0; i < chunk.size(); i++) {
                SplitCursor cursor = chunk.get(i);
                List<ReadItem> items = new ArrayList<>(1);
                SplitCursor.Outcome outcome = cursor.positioned(answers.get(i), items);
                batch.add(cursor.splitId(), items);
                finishIfGone(cursor, batch);
                LOG.debug("split {} seeks {} us: {} at offset {}", cursor.splitId(), cursor.split().skipBelowMicros(),
                        outcome, cursor.nextOffset());
            }
        }
    }

    private void fetchBehind(ReadBatch batch) {
        long watermark = exchange.watermarkMillis();
        List<SplitCursor> behind = new ArrayList<>();
        int paused = 0;
        for (SplitCursor cursor : cursors.values()) {
            if (!cursor.behind()) {
                continue;
            }
            if (cursor.pausedForAlignment() || cursor.aheadOfWatermark(watermark, maxWindowMs)) {
                paused++;
            } else {
                behind.add(cursor);
            }
        }
        metrics.setPausedSplits(paused);
        if (behind.isEmpty()) {
            return;
        }
        // Each split asks for a part of a window of its own broker time; the round's cap only binds when
        // thousands of partitions are behind at once.
        int capBytes = (int) Math.max(FetchBudget.MIN_BYTES, Math.min(FetchBudget.MAX_BYTES, ROUND_BUDGET_BYTES / behind.size()));
        List<FetchEntry> entries = new ArrayList<>(behind.size());
        behind.forEach(c -> entries.add(c.entry(capBytes)));
        List<FetchedPartition> answers;
        try {
            answers = batcher.fetchAll(entries);
        } catch (QueenException e) {
            metrics.fetchCall(QueenSourceMetrics.RESULT_FAILED);
            throw e;
        }
        for (int call = 0; call * FetchRequest.MAX_ENTRIES < behind.size(); call++) {
            int from = call * FetchRequest.MAX_ENTRIES;
            int to = Math.min(behind.size(), from + FetchRequest.MAX_ENTRIES);
            boolean anyRecords = false;
            boolean anyError = false;
            for (int i = from; i < to; i++) {
                SplitCursor cursor = behind.get(i);
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
                    metrics.fetched(cursor.split().queue(), records, bytes);
                }
                batch.add(cursor.splitId(), items);
                finishIfGone(cursor, batch);
            }
            metrics.fetchCall(anyRecords ? QueenSourceMetrics.RESULT_RECORDS
                    : anyError ? QueenSourceMetrics.RESULT_ENTRY_ERROR : QueenSourceMetrics.RESULT_EMPTY);
        }
    }

    private void finishIfGone(SplitCursor cursor, ReadBatch batch) {
        if (cursor.gone() && cursors.remove(cursor.splitId()) != null) {
            batch.finish(cursor.splitId());
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

    /** Test hook: the cursor of a split this reader owns, or null. */
    SplitCursor cursor(String splitId) {
        return cursors.get(splitId);
    }
}
