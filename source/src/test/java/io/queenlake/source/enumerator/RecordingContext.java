package io.queenlake.source.enumerator;

import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;

/**
 * Flink's {@link MockSplitEnumeratorContext} that also keeps split assignments and source events in
 * one sequence per reader, so a test can check what a reader got before what.
 */
final class RecordingContext extends MockSplitEnumeratorContext<PartitionSplit> {

    /** One thing a reader received: a split or an event. */
    record Delivered(int reader, PartitionSplit split, SourceEvent event) {}

    private final List<Delivered> sequence = Collections.synchronizedList(new ArrayList<>());

    RecordingContext(int parallelism) {
        super(parallelism);
    }

    @Override
    public void assignSplits(SplitsAssignment<PartitionSplit> assignment) {
        super.assignSplits(assignment);
        assignment.assignment().forEach((reader, splits) -> splits.forEach(s -> sequence.add(new Delivered(reader, s, null))));
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        super.sendEventToSourceReader(subtaskId, event);
        sequence.add(new Delivered(subtaskId, null, event));
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

    List<PartitionSplit> splitsOf(int reader) {
        return to(reader).stream().filter(d -> d.split() != null).map(Delivered::split).toList();
    }

    List<PartitionSplit> allSplits() {
        return sequence().stream().filter(d -> d.split() != null).map(Delivered::split).toList();
    }

    <E extends SourceEvent> List<E> eventsOf(int reader, Class<E> type) {
        return to(reader).stream().filter(d -> type.isInstance(d.event())).map(d -> type.cast(d.event())).toList();
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
