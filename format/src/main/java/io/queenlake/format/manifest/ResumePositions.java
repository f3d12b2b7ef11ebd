package io.queenlake.format.manifest;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.Incarnation;
import io.queenlake.format.order.Incarnations;
import io.queenlake.format.order.OrderedRecords;
import io.queenlake.format.run.OrderedRuns;
import io.queenlake.format.run.RunSlice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a restart may read each partition from without missing anything at or after a window's
 * {@code tEnd}, pure: the offset after the newest record of the partition (highest stamp, then
 * offset), with that record's incarnation. The newest record always belongs to the partition's
 * current incarnation, because a replacing incarnation only holds later stamps.
 */
public final class ResumePositions {

    private ResumePositions() {}

    /** Per partition, the position after the newest of {@code records}, in any order. */
    public static Map<String, CheckpointDoc.Position> after(Collection<LogRecord> records) {
        // Per incarnation first (one look-up per run of records), then across a name's incarnations.
        Map<String, LogRecord> newest = new HashMap<>();
        for (Incarnation i : Incarnations.of(records).all()) {
            newest.merge(i.partition(), i.newest(), (a, b) -> isNewer(b, a) ? b : a);
        }
        Map<String, CheckpointDoc.Position> positions = new HashMap<>();
        newest.forEach((partition, r) -> positions.put(partition, after(r)));
        return positions;
    }

    /** The same for a window already in lake order: one scan of each partition's span, no look-up. */
    public static List<CheckpointDoc.Position> after(OrderedRecords ordered) {
        List<CheckpointDoc.Position> positions = new ArrayList<>(ordered.partitions().size());
        List<LogRecord> records = ordered.records();
        for (OrderedRecords.PartitionSpan span : ordered.partitions()) {
            LogRecord newest = records.get(span.from());
            for (int i = span.from() + 1; i < span.to(); i++) {
                if (isNewer(records.get(i), newest)) {
                    newest = records.get(i);
                }
            }
            positions.add(after(newest));
        }
        return positions;
    }

    /**
     * The same for a window kept as runs, in name order: each run's last record is its newest
     * (a run's stamps never fall and its offsets rise), so only the runs of a name are compared.
     */
    public static List<CheckpointDoc.Position> after(OrderedRuns ordered) {
        List<CheckpointDoc.Position> positions = new ArrayList<>(ordered.names().size());
        List<RunSlice> slices = ordered.slices();
        for (OrderedRuns.NameSpan span : ordered.names()) {
            RunSlice newest = slices.get(span.from());
            for (int i = span.from() + 1; i < span.to(); i++) {
                RunSlice s = slices.get(i);
                if (s.lastStamp() > newest.lastStamp()
                        || (s.lastStamp() == newest.lastStamp() && s.lastOffset() > newest.lastOffset())) {
                    newest = s;
                }
            }
            positions.add(new CheckpointDoc.Position(span.partition(), newest.lastOffset() + 1, newest.partitionId()));
        }
        return positions;
    }

    private static CheckpointDoc.Position after(LogRecord newest) {
        return new CheckpointDoc.Position(newest.partition(), newest.offset() + 1, newest.partitionId());
    }

    private static boolean isNewer(LogRecord candidate, LogRecord current) {
        if (candidate.tsMicros() != current.tsMicros()) {
            return candidate.tsMicros() > current.tsMicros();
        }
        return candidate.offset() > current.offset();
    }
}
