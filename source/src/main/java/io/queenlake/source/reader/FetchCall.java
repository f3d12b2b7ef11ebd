package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchEntry;
import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.FetchedPartition;
import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.source.metrics.QueenSourceMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The partitions one of the reader's calls asks for (the shared call, or a queue's call of its
 * own), with the queue split of each, and how their answers become items. The batcher sends it in
 * requests of up to {@link FetchRequest#MAX_ENTRIES} entries, each counted by its result. Fetcher
 * thread only.
 */
final class FetchCall {

    private final List<SplitCursor> cursors = new ArrayList<>();
    private final List<QueueCursors> owners = new ArrayList<>();

    void add(SplitCursor cursor, QueueCursors owner) {
        cursors.add(cursor);
        owners.add(owner);
    }

    int size() {
        return cursors.size();
    }

    /** The queue of its first partition: the only one in a queue's own call ({@link #byQueue}). */
    String firstQueue() {
        return owners.get(0).queue();
    }

    /** One entry per partition, in order, each asking for its budget but at most {@code capBytes}. */
    List<FetchEntry> entries(int capBytes) {
        List<FetchEntry> entries = new ArrayList<>(cursors.size());
        cursors.forEach(c -> entries.add(c.entry(capBytes)));
        return entries;
    }

    /** The same partitions, one call per queue, in this call's order. */
    Map<String, FetchCall> byQueue() {
        Map<String, FetchCall> byQueue = new LinkedHashMap<>();
        for (int i = 0; i < cursors.size(); i++) {
            byQueue.computeIfAbsent(owners.get(i).queue(), q -> new FetchCall()).add(cursors.get(i), owners.get(i));
        }
        return byQueue;
    }

    /**
     * Turns this call's answers (in its entries' order) into items; each request the batcher sent
     * counts once in {@code fetchCalls}, by its result.
     */
    void absorb(List<FetchedPartition> answers, ReadBatch batch, QueenSourceMetrics metrics) {
        for (int call = 0; call * FetchRequest.MAX_ENTRIES < size(); call++) {
            int from = call * FetchRequest.MAX_ENTRIES;
            int to = Math.min(size(), from + FetchRequest.MAX_ENTRIES);
            boolean anyRecords = false;
            boolean anyError = false;
            for (int i = from; i < to; i++) {
                SplitCursor cursor = cursors.get(i);
                QueueCursors q = owners.get(i);
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
                    metrics.fetched(records, bytes);
                }
                batch.add(q.splitId(), items);
                q.retireIfGone(cursor, batch);
            }
            metrics.fetchCall(anyRecords ? QueenSourceMetrics.RESULT_RECORDS
                    : anyError ? QueenSourceMetrics.RESULT_ENTRY_ERROR : QueenSourceMetrics.RESULT_EMPTY);
        }
    }
}
