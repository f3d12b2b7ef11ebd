package io.queenlake.job.window;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per partition incarnation, the record with the lowest offset among those added (the first added
 * among equal offsets) and the lost ranges riding on it: where a restore reads from again. Records
 * of an incarnation come in runs, so a record of the previous one's incarnation is compared with
 * that incarnation's oldest directly; only a record starting a run is looked up by name. A
 * checkpoint scans every open record through this, so the look-ups were most of its cost.
 */
final class OldestOpen {

    /** The oldest record seen of one partition incarnation, and the lost ranges riding on it. */
    record Oldest(long offset, List<LostRange> lostBefore) {}

    private final Map<String, Map<String, Oldest>> byPartition = new HashMap<>();
    /** The run the last record belonged to: its names, its incarnation's map and oldest. */
    private String runPartition;
    private String runId;
    private Map<String, Oldest> runById;
    private Oldest runOldest;

    void add(LogRecord r, List<LostRange> lostBefore) {
        if (runOldest != null && r.partition().equals(runPartition) && r.partitionId().equals(runId)) {
            if (r.offset() < runOldest.offset()) {
                runOldest = new Oldest(r.offset(), lostBefore);
                runById.put(runId, runOldest);
            }
            return;
        }
        Map<String, Oldest> byId = byPartition.computeIfAbsent(r.partition(), p -> new HashMap<>(2));
        Oldest known = byId.get(r.partitionId());
        if (known == null || r.offset() < known.offset()) {
            known = new Oldest(r.offset(), lostBefore);
            byId.put(r.partitionId(), known);
        }
        runPartition = r.partition();
        runId = r.partitionId();
        runById = byId;
        runOldest = known;
    }

    /** Takes in what another scan found; where both know an incarnation, the lower offset wins, this one's on a tie. */
    void merge(Map<String, Map<String, Oldest>> other) {
        runOldest = null;
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
