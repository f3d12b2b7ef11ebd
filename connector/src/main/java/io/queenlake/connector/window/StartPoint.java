package io.queenlake.connector.window;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.connector.restore.PointerRestore;
import io.queenlake.source.split.QueueCut;
import java.util.List;
import java.util.Optional;

/**
 * Where a queue's windows continue when a reader takes its split, pure (docs/ARCHITECTURE.md
 * "Restore"): from the split's cut, or from the commit pointer when the cut is empty or the pointer
 * is ahead of it (an older savepoint, or another writer ran: the pointer wins when it is ahead).
 * An open intent is redone first only when it names the very next window.
 *
 * @param k the number of the last window closed
 * @param lastEnd where the next window starts ({@link Long#MIN_VALUE} before the first)
 * @param pointerEnd records stamped below this are dropped ({@link Long#MIN_VALUE} for none)
 * @param closedPositions per partition, the position after its newest record in a closed window
 * @param redo the open intent to finish first, window {@code k + 1}
 * @param fromPointer whether the numbering comes from the pointer rather than the cut
 */
record StartPoint(
        long k, long lastEnd, long pointerEnd, List<CheckpointDoc.Position> closedPositions, Optional<Intent> redo,
        boolean fromPointer) {

    StartPoint {
        closedPositions = List.copyOf(closedPositions);
    }

    static StartPoint decide(Optional<QueueCut> cut, PointerRestore.Start start) {
        Optional<Committed> committed = start.committed();
        long committedK = committed.map(Committed::k).orElse(0L);
        if (cut.isEmpty() || committedK > cut.get().k()) {
            long end = committed.map(Committed::tEnd).orElse(Long.MIN_VALUE);
            return new StartPoint(committedK, end, end, List.of(), next(start.redo(), committedK), true);
        }
        QueueCut c = cut.get();
        return new StartPoint(c.k(), c.lastEnd(), c.pointerEnd(), c.closedPositions(), next(start.redo(), c.k()),
                false);
    }

    private static Optional<Intent> next(Optional<Intent> intent, long k) {
        return intent.filter(i -> i.k() == k + 1);
    }
}
