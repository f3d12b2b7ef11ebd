package io.queenlake.source.enumerator.start;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.source.StartMode;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the broker and the bucket say about one queue before its first pass: the commit pointer,
 * if any, and the positions of the newest bucket checkpoint at or below it (by partition name;
 * empty when there is none, it is unreadable, or there is no lake root). Read off the coordinator
 * thread; turned into a {@link StartDecision} together with the first pass.
 */
public record StartPlan(Optional<Committed> pointer, Map<String, CheckpointDoc.Position> positions) {

    public StartPlan {
        Objects.requireNonNull(pointer, "pointer");
        positions = Map.copyOf(positions);
    }

    public static StartPlan noPointer() {
        return new StartPlan(Optional.empty(), Map.of());
    }

    /** With a pointer the queue continues from it; otherwise {@code start} decides, latest at this pass's safeTime. */
    public StartDecision decide(StartMode start, long firstPassSafeTimeMicros) {
        if (pointer.isPresent()) {
            return StartDecision.pointer(pointer.get().tEnd());
        }
        return start == StartMode.EARLIEST ? StartDecision.earliest() : StartDecision.latest(firstPassSafeTimeMicros);
    }

    public Optional<CheckpointDoc.Position> position(String partition) {
        return Optional.ofNullable(positions.get(partition));
    }
}
