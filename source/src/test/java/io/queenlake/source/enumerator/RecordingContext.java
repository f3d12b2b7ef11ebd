package io.queenlake.source.enumerator;

import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassListing;
import io.queenlake.source.event.PassUpdate;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueSplit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;

/**
 * Flink's {@link MockSplitEnumeratorContext} that also keeps split assignments and source events in
 * one sequence per reader, so a test can check what a reader got before what. A {@link PassUpdate}
 * is kept as the {@link PassCompleted} the reader rebuilds from it (through its own
 * {@link PassListing}), and the updates themselves apart ({@link #updatesTo}).
 */
final class RecordingContext extends MockSplitEnumeratorContext<QueueSplit> {

    /** One thing a reader received: a split or an event. */
    record Delivered(int reader, QueueSplit split, Object event) {}

    private final List<Delivered> sequence = Collections.synchronizedList(new ArrayList<>());
    private final Map<Integer, PassListing> listings = new HashMap<>();
    private final Map<Integer, List<PassUpdate>> updates = new HashMap<>();

    RecordingContext(int parallelism) {
        super(parallelism);
    }

    @Override
    public void assignSplits(SplitsAssignment<QueueSplit> assignment) {
        super.assignSplits(assignment);
        assignment.assignment().forEach((reader, splits) -> splits.forEach(s -> sequence.add(new Delivered(reader, s, null))));
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        super.sendEventToSourceReader(subtaskId, event);
        if (event instanceof PassUpdate update) {
            synchronized (listings) {
                updates.computeIfAbsent(subtaskId, r -> new ArrayList<>()).add(update);
                PassCompleted pass = listings.computeIfAbsent(subtaskId, r -> new PassListing()).apply(update)
                        .orElseThrow(() -> new AssertionError("reader " + subtaskId + " could not apply " + update));
                sequence.add(new Delivered(subtaskId, null, pass));
            }
            return;
        }
        sequence.add(new Delivered(subtaskId, null, event));
    }

    /** The pass updates {@code reader} got, as sent. */
    List<PassUpdate> updatesTo(int reader) {
        synchronized (listings) {
            return List.copyOf(updates.getOrDefault(reader, List.of()));
        }
    }

    void register(int... readers) {
        for (int reader : readers) {
            registerReader(new ReaderInfo(reader, "localhost"));
        }
    }

    List<Delivered> sequence() {
        synchronized (sequence) {
            return List.copyOf(sequence);
        }
    }

    List<Delivered> to(int reader) {
        return sequence().stream().filter(d -> d.reader() == reader).toList();
    }

    List<QueueSplit> splitsOf(int reader) {
        return to(reader).stream().filter(d -> d.split() != null).map(Delivered::split).toList();
    }

    List<QueueSplit> allSplits() {
        return sequence().stream().filter(d -> d.split() != null).map(Delivered::split).toList();
    }

    <E> List<E> eventsOf(int reader, Class<E> type) {
        return to(reader).stream().filter(d -> type.isInstance(d.event())).map(d -> type.cast(d.event())).toList();
    }

    /** Every partition of every split given out, in assignment order. */
    List<PartitionSplit> allPartitions() {
        return allSplits().stream().flatMap(s -> s.partitions().stream()).toList();
    }

    /** The newest pass {@code reader} got, or null. */
    PassCompleted lastPass(int reader) {
        List<PassCompleted> passes = eventsOf(reader, PassCompleted.class);
        return passes.isEmpty() ? null : passes.get(passes.size() - 1);
    }

    /**
     * Where each partition of {@code queue} is read from as its reader learns it: the partitions of
     * the queue's split, and for a partition (or incarnation) the split does not hold, the start
     * the newest pass to any reader gives it.
     */
    Map<String, PartitionSplit> startsOf(String queue) {
        Map<String, PartitionSplit> starts = new LinkedHashMap<>();
        Map<String, String> inSplit = new LinkedHashMap<>();
        for (QueueSplit split : allSplits()) {
            if (split.queue().equals(queue)) {
                split.partitions().forEach(p -> {
                    starts.put(p.partition(), p);
                    inSplit.put(p.partition(), p.partitionId());
                });
            }
        }
        for (Delivered d : sequence()) {
            if (d.event() instanceof PassCompleted pass && pass.queues().containsKey(queue)) {
                for (PassCompleted.PassPartition row : pass.queues().get(queue)) {
                    if (!row.partitionId().equals(inSplit.get(row.partition()))) {
                        starts.put(row.partition(), PartitionSplit.atOffset(
                                queue, row.partition(), row.partitionId(), row.startOffset(), row.skipBelowMicros()));
                    }
                }
            }
        }
        return starts;
    }

    void leaseRound() throws Throwable {
        runPeriodicCallable(0);
    }

    void discoveryRun() throws Throwable {
        runPeriodicCallable(1);
    }

    /**
     * Runs the one-shot calls the enumerator asked for (a lease round on a listing that adds queues, a
     * discovery run on a won lease), and those they ask for in turn; returns how many ran.
     */
    int oneShotCalls() throws Throwable {
        int n = 0;
        while (!getOneTimeCallables().isEmpty()) {
            runNextOneTimeCallable();
            n++;
        }
        return n;
    }
}
