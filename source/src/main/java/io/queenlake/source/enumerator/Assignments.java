package io.queenlake.source.enumerator;

import io.queenlake.source.split.QueueSplit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Queue splits waiting for their reader (not registered yet, or given back after a failure).
 * Coordinator thread only. Partitions found after a queue's split was made never wait here: they
 * reach the queue's reader with the passes.
 */
final class Assignments {

    private final Map<Integer, LinkedHashMap<String, QueueSplit>> pending = new HashMap<>();

    void add(QueueSplit split, int owner) {
        pending.computeIfAbsent(owner, o -> new LinkedHashMap<>()).put(split.splitId(), split);
    }

    /**
     * Adds a split no reader holds yet for the reader holding the fewest queues this enumerator
     * gave out (ties by a hash of the name), so two queues on two readers never share one.
     *
     * @param readers the current parallelism
     * @param queuesByOwner how many queue splits each reader was given ({@link PartitionBook#queuesByOwner})
     */
    void addNew(QueueSplit split, int readers, Map<Integer, Integer> queuesByOwner) {
        add(split, ownerOfNew(split.queue(), readers, queuesByOwner));
    }

    /** The reader with the least load, the splits waiting for it counted with those it was given. */
    private int ownerOfNew(String queue, int readers, Map<Integer, Integer> load) {
        pendingByOwner().forEach((reader, n) -> load.merge(reader, n, Integer::sum));
        int best = SplitOwners.ownerOf(queue, "", readers);
        for (int reader = 0; reader < readers; reader++) {
            if (load.getOrDefault(reader, 0) < load.getOrDefault(best, 0)) {
                best = reader;
            }
        }
        return best;
    }

    /** Takes everything waiting for {@code reader}. */
    List<QueueSplit> take(int reader) {
        LinkedHashMap<String, QueueSplit> waiting = pending.remove(reader);
        return waiting == null ? List.of() : List.copyOf(waiting.values());
    }

    /** Every split waiting for a reader, for the enumerator state. */
    List<QueueSplit> pendingSplits() {
        List<QueueSplit> all = new ArrayList<>();
        for (LinkedHashMap<String, QueueSplit> waiting : pending.values()) {
            all.addAll(waiting.values());
        }
        return all;
    }

    int pendingCount() {
        int n = 0;
        for (LinkedHashMap<String, QueueSplit> waiting : pending.values()) {
            n += waiting.size();
        }
        return n;
    }

    /** How many splits wait for each reader. */
    private Map<Integer, Integer> pendingByOwner() {
        Map<Integer, Integer> counts = new HashMap<>();
        pending.forEach((reader, waiting) -> counts.put(reader, waiting.size()));
        return counts;
    }

    /** Whether {@code queue}'s split waits for a reader. */
    boolean pending(String queue) {
        String id = QueueSplit.splitId(queue);
        for (LinkedHashMap<String, QueueSplit> waiting : pending.values()) {
            if (waiting.containsKey(id)) {
                return true;
            }
        }
        return false;
    }
}
