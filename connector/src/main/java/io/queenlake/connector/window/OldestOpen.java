package io.queenlake.connector.window;

import io.queenlake.format.model.LostRange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per partition incarnation, the oldest open record (the lowest offset) and the lost ranges riding
 * on it: where a restore reads from again. Open records are kept in runs whose offsets rise, so a
 * checkpoint looks at each run's first record only.
 */
final class OldestOpen {

    /** The oldest record seen of one partition incarnation, and the lost ranges riding on it. */
    record Oldest(long offset, List<LostRange> lostBefore) {}

    private final Map<String, Map<String, Oldest>> byPartition = new HashMap<>();

    /** A run's first record; where an incarnation has two, the lower offset wins, the first added on a tie. */
    void add(String partition, String partitionId, long offset, List<LostRange> lostBefore) {
        Map<String, Oldest> byId = byPartition.computeIfAbsent(partition, p -> new HashMap<>(2));
        Oldest known = byId.get(partitionId);
        if (known == null || offset < known.offset()) {
            byId.put(partitionId, new Oldest(offset, lostBefore));
        }
    }

    /** Takes in what another scan found; where both know an incarnation, the lower offset wins, this one's on a tie. */
    void merge(Map<String, Map<String, Oldest>> other) {
        other.forEach((partition, byId) -> byId.forEach((id, o) -> {
            Map<String, Oldest> known = byPartition.computeIfAbsent(partition, p -> new HashMap<>(2));
            known.merge(id, o, (a, b) -> a.offset() <= b.offset() ? a : b);
        }));
    }

    /** Partition name, then incarnation id, to the oldest record. */
    Map<String, Map<String, Oldest>> byPartition() {
        return byPartition;
    }
}
