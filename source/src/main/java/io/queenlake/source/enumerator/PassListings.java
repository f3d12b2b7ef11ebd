package io.queenlake.source.enumerator;

import io.queenlake.source.event.PassCompleted.PassPartition;
import io.queenlake.source.event.PassUpdate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What each reader was last told of its queues' partitions, so that a pass sends a reader only the
 * rows that changed ({@link PassUpdate}): its cost follows the partitions written to, not the
 * partitions there are. A reader this enumerator knows nothing of (just registered, restarted, or
 * asking) gets the whole listing. Coordinator thread only.
 */
final class PassListings {

    /** One reader's listing as told: per queue its rows by partition name, and the last update's number. */
    private static final class Told {
        long sequence;
        final Map<String, Map<String, PassPartition>> queues = new HashMap<>();
    }

    private final Map<Integer, Told> byReader = new HashMap<>();

    /** The reader's next update is the whole listing: it registered (again) or lost track. */
    void forget(int reader) {
        byReader.remove(reader);
    }

    /** The update that brings {@code reader} from what it was told to {@code now}, remembered as told. */
    PassUpdate update(int reader, long safeTimeMicros, Map<String, List<PassPartition>> now) {
        Told told = byReader.get(reader);
        if (told == null) {
            told = new Told();
            byReader.put(reader, told);
            told.sequence = 1;
            now.forEach(remember(told));
            return PassUpdate.full(1, safeTimeMicros, now);
        }
        Map<String, List<PassPartition>> changed = new HashMap<>();
        Map<String, Set<String>> removed = new HashMap<>();
        Set<String> unlisted = new HashSet<>(told.queues.keySet());
        unlisted.removeAll(now.keySet());
        told.queues.keySet().removeAll(unlisted);
        for (Map.Entry<String, List<PassPartition>> e : now.entrySet()) {
            String queue = e.getKey();
            Map<String, PassPartition> before = told.queues.get(queue);
            if (before == null) {
                changed.put(queue, e.getValue());
                remember(told).accept(queue, e.getValue());
                continue;
            }
            List<PassPartition> differ = new ArrayList<>();
            for (PassPartition row : e.getValue()) {
                if (!row.equals(before.put(row.partition(), row))) {
                    differ.add(row);
                }
            }
            if (!differ.isEmpty()) {
                changed.put(queue, differ);
            }
            if (before.size() != e.getValue().size()) {
                // Names listed before and not now (a partition name lists one incarnation at a time).
                Set<String> gone = new HashSet<>(before.keySet());
                e.getValue().forEach(row -> gone.remove(row.partition()));
                before.keySet().removeAll(gone);
                removed.put(queue, gone);
            }
        }
        long basedOn = told.sequence;
        told.sequence++;
        return new PassUpdate(told.sequence, basedOn, safeTimeMicros, changed, removed, unlisted);
    }

    private static BiConsumer<String, List<PassPartition>> remember(Told told) {
        return (queue, rows) -> {
            Map<String, PassPartition> byName = new HashMap<>();
            rows.forEach(row -> byName.put(row.partition(), row));
            told.queues.put(queue, byName);
        };
    }
}
