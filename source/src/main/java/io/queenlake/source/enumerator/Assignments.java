package io.queenlake.source.enumerator;

import io.queenlake.source.event.PartitionReplaced;
import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Splits waiting for their reader, and the replaced incarnations a reader must hear about in order.
 * Coordinator thread only.
 *
 * <p>For one reader a {@link Delivery} is: first the splits of replaced incarnations (given back
 * after a failure, or never delivered), then the {@link PartitionReplaced} events about its splits,
 * then every other split. So the reader always has the old incarnation before it learns it was
 * replaced, and learns that before it gets the new one.
 *
 * <p>A replacement is remembered until a checkpoint taken after it completes: until then the
 * reader may fail and get the new split back through {@code addSplitsBack} without the event.
 */
final class Assignments {

    /** What one reader gets now, in this order. */
    record Delivery(List<PartitionSplit> replacedSplits, List<PartitionReplaced> events, List<PartitionSplit> splits) {
        boolean isEmpty() {
            return replacedSplits.isEmpty() && events.isEmpty() && splits.isEmpty();
        }
    }

    private record Remembered(PartitionReplaced event, long snapshotsBefore) {}

    private final Map<Integer, LinkedHashMap<String, PartitionSplit>> pending = new HashMap<>();
    private final Map<String, Remembered> replacements = new HashMap<>();
    private final TreeMap<Long, Long> snapshotsAtCheckpoint = new TreeMap<>();
    private long snapshots;

    void add(PartitionSplit split, int owner) {
        pending.computeIfAbsent(owner, o -> new LinkedHashMap<>()).put(split.splitId(), split);
    }

    void remember(PartitionReplaced event) {
        replacements.put(partitionKey(event.queue(), event.partition()), new Remembered(event, snapshots));
    }

    /** Takes everything waiting for {@code reader}. */
    Delivery take(int reader) {
        LinkedHashMap<String, PartitionSplit> waiting = pending.remove(reader);
        if (waiting == null) {
            return new Delivery(List.of(), List.of(), List.of());
        }
        List<PartitionSplit> replaced = new ArrayList<>();
        Set<PartitionReplaced> events = new LinkedHashSet<>();
        List<PartitionSplit> splits = new ArrayList<>();
        for (PartitionSplit split : waiting.values()) {
            Remembered r = replacements.get(partitionKey(split.queue(), split.partition()));
            if (r != null && r.event.oldPartitionId().equals(split.partitionId())) {
                replaced.add(split);
                events.add(r.event);
            } else {
                if (r != null && r.event.newPartitionId().equals(split.partitionId())) {
                    events.add(r.event);
                }
                splits.add(split);
            }
        }
        return new Delivery(replaced, List.copyOf(events), splits);
    }

    /** Every split waiting for a reader, for the enumerator state. */
    List<PartitionSplit> pendingSplits() {
        List<PartitionSplit> all = new ArrayList<>();
        for (LinkedHashMap<String, PartitionSplit> waiting : pending.values()) {
            all.addAll(waiting.values());
        }
        return all;
    }

    int pendingCount() {
        int n = 0;
        for (LinkedHashMap<String, PartitionSplit> waiting : pending.values()) {
            n += waiting.size();
        }
        return n;
    }

    void onSnapshot(long checkpointId) {
        snapshots++;
        snapshotsAtCheckpoint.put(checkpointId, snapshots);
    }

    /** A completed checkpoint holds every replacement sent before its snapshot: they need no resend. */
    void onCheckpointComplete(long checkpointId) {
        Long taken = snapshotsAtCheckpoint.get(checkpointId);
        if (taken == null) {
            return;
        }
        snapshotsAtCheckpoint.headMap(checkpointId, true).clear();
        for (Iterator<Remembered> it = replacements.values().iterator(); it.hasNext(); ) {
            if (it.next().snapshotsBefore < taken) {
                it.remove();
            }
        }
    }

    private static String partitionKey(String queue, String partition) {
        return queue + '\u0000' + partition;
    }
}
