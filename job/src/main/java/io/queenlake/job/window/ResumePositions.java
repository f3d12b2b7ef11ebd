package io.queenlake.job.window;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.order.Incarnation;
import io.queenlake.format.order.Incarnations;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a restart may read each partition from without missing anything at or after a window's
 * {@code tEnd}, pure: the offset after the newest record of the partition in the windows so far,
 * with that record's incarnation. The newest record (highest stamp, then offset) always belongs to
 * the partition's current incarnation, because a replacing incarnation only holds later stamps.
 */
final class ResumePositions {

    private ResumePositions() {}

    /** Per partition, the position after the newest of {@code records}. */
    static Map<String, CheckpointDoc.Position> after(Collection<LogRecord> records) {
        // Per incarnation first (one look-up per run of records), then across a name's incarnations.
        Map<String, LogRecord> newest = new HashMap<>();
        for (Incarnation i : Incarnations.of(records).all()) {
            newest.merge(i.partition(), i.newest(), (a, b) -> isNewer(b, a) ? b : a);
        }
        Map<String, CheckpointDoc.Position> positions = new HashMap<>();
        newest.forEach((partition, r) ->
                positions.put(partition, new CheckpointDoc.Position(partition, r.offset() + 1, r.partitionId())));
        return positions;
    }

    private static boolean isNewer(LogRecord candidate, LogRecord current) {
        if (candidate.tsMicros() != current.tsMicros()) {
            return candidate.tsMicros() > current.tsMicros();
        }
        return candidate.offset() > current.offset();
    }
}
