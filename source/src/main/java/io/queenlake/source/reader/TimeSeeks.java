package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchRequest;
import io.queenlake.broker.client.OffsetAnswer;
import io.queenlake.broker.client.OffsetQuery;
import io.queenlake.broker.client.QueenClient;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds where the partitions that start at a time begin: every listed partition still waiting for
 * its start is sought with {@code fetch/offsets}, in calls of up to {@link FetchRequest#MAX_ENTRIES}
 * queries, one after another. Fetcher thread only.
 */
final class TimeSeeks {

    // Its line keeps the split reader's logger, as before seeking had a class of its own.
    private static final Logger LOG = LoggerFactory.getLogger(QueenSplitReader.class);

    private final QueenClient client;

    TimeSeeks(QueenClient client) {
        this.client = client;
    }

    /** Seeks every partition of {@code queues} that waits for its start; the new positions go into {@code batch}. */
    void seekWaiting(Collection<QueueCursors> queues, ReadBatch batch) {
        List<SplitCursor> waiting = new ArrayList<>();
        List<QueueCursors> owners = new ArrayList<>();
        for (QueueCursors q : queues) {
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
}
