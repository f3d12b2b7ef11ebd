package io.queenlake.source.enumerator;

import io.queenlake.source.split.QueueSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;

/**
 * What the enumerator hands its readers: the queue splits waiting for each, and after a complete
 * pass each reader's listing of its queues' partitions (only what changed since it was last told,
 * {@link PassListings}). The book learns which reader holds each queue from here. Coordinator
 * thread only.
 */
final class ReaderDelivery {

    private final SplitEnumeratorContext<QueueSplit> context;
    private final PartitionBook book;
    private final Assignments assignments;
    private final RefusedQueues refused;
    private final PassListings listings = new PassListings();

    ReaderDelivery(SplitEnumeratorContext<QueueSplit> context, PartitionBook book, Assignments assignments,
            RefusedQueues refused) {
        this.context = context;
        this.book = book;
        this.assignments = assignments;
        this.refused = refused;
    }

    /** Gives every registered reader the queue splits waiting for it. */
    void deliverAll() {
        for (int reader : new ArrayList<>(context.registeredReaders().keySet())) {
            deliver(reader);
        }
    }

    /** Gives {@code reader} every queue split waiting for it. */
    void deliver(int reader) {
        List<QueueSplit> splits = assignments.take(reader);
        if (splits.isEmpty()) {
            return;
        }
        context.assignSplits(new SplitsAssignment<>(Map.of(reader, splits)));
        for (QueueSplit split : splits) {
            book.queue(split.queue()).ifPresent(queue -> {
                queue.assigned = true;
                queue.ownerUnknown = false;
                queue.owner = reader;
            });
        }
    }

    /** Splits a reader gave back wait for it again, and go to it at once when it is registered. */
    void takeBack(List<QueueSplit> splits, int reader) {
        for (QueueSplit split : splits) {
            assignments.add(split, reader);
            book.queue(split.queue()).ifPresent(queue -> queue.assigned = false);
        }
        if (context.registeredReaders().containsKey(reader)) {
            deliver(reader);
        }
    }

    /** Tells every registered reader a complete pass: its safeTime and its queues' partitions. */
    void sendPass(long safeTime) {
        Set<String> parked = refused.names();
        book.passByReader(context.registeredReaders().keySet()).forEach((reader, queues) -> {
            // No pass lists a refused queue: its restored split reads nothing and keeps its cut.
            queues.keySet().removeAll(parked);
            context.sendEventToSourceReader(reader, listings.update(reader, safeTime, queues));
        });
    }

    /** The reader's next pass is the whole listing: it registered (again) or lost track. */
    void forgetListing(int reader) {
        listings.forget(reader);
    }
}
