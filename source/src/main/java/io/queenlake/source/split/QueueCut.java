package io.queenlake.source.split;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LostRange;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The windows' part of a queue split at a checkpoint: how far the queue's windows were closed
 * and numbered, so that a restore continues exactly there (docs/ARCHITECTURE.md
 * "Restore"). About a hundred bytes per partition, whatever the window size.
 *
 * @param k the number of the last window closed (0 before the first)
 * @param lastEnd the {@code tEnd} of window {@code k}, where the next window starts;
 *     {@link Long#MIN_VALUE} before the first
 * @param pointerEnd records stamped below this are dropped (the commit pointer's {@code tEnd}
 *     the numbering continued from); {@link Long#MIN_VALUE} for none
 * @param closedPositions per partition, the position after its newest record in a closed window
 *     (what the next checkpoint object names)
 * @param pendingLost lost ranges riding on records still open: a restore reads those records
 *     again from their own offsets, so the gaps before them ride on them again from here
 */
@Internal
public record QueueCut(
        long k, long lastEnd, long pointerEnd, List<CheckpointDoc.Position> closedPositions,
        List<LostRange> pendingLost) {

    public QueueCut {
        if (k < 0) {
            throw new IllegalArgumentException("a queue cut's window number must be >= 0, got " + k);
        }
        closedPositions = List.copyOf(closedPositions);
        pendingLost = List.copyOf(pendingLost);
    }
}
