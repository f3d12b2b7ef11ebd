package io.queenlake.source.enumerator.start;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.source.StartMode;
import io.queenlake.source.split.QueueCut;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * What the broker and the bucket say about one queue before its first pass: the commit pointer,
 * if any, and where each partition continues after it (by partition name, from the newest bucket
 * checkpoint at or below it and the manifests since; empty when there is no lake root); without a pointer, the
 * start of an open intent of window 1, if any. Read off the coordinator thread; turned into a
 * {@link StartDecision} together with the first pass.
 *
 * @param openIntentStart without a pointer, {@code tStart} of an intent of window 1: a crashed run
 *     may have published that window's objects, so the queue is read from there, whatever
 *     {@code queen.s3.start} says, and the window operator finishes that window first
 * @param refusal why the queue must not start now: its lake is ahead of its pointer, or the lake
 *     could not be checked; such a queue gets no split and is checked again later
 */
@Internal
public record StartPlan(Optional<Committed> pointer, Map<String, CheckpointDoc.Position> positions,
        Optional<Long> openIntentStart, Optional<Refusal> refusal) {

    /**
     * One sentence saying why a queue does not start.
     *
     * @param sentence empty while the check has not answered yet
     * @param lakeAhead true when the bucket holds manifests beyond the pointer ({@link LakeAhead}),
     *     false when the bucket could not be read to check it, or not yet
     */
    public record Refusal(String sentence, boolean lakeAhead) {

        /** The check has not answered yet: nothing to say, the queue is asked again at the next run. */
        public boolean checking() {
            return sentence.isEmpty();
        }
    }

    public StartPlan {
        Objects.requireNonNull(pointer, "pointer");
        positions = Map.copyOf(positions);
        Objects.requireNonNull(openIntentStart, "openIntentStart");
        Objects.requireNonNull(refusal, "refusal");
    }

    public StartPlan(Optional<Committed> pointer, Map<String, CheckpointDoc.Position> positions) {
        this(pointer, positions, Optional.empty(), Optional.empty());
    }

    /** A queue whose lake check has not answered yet: it waits, unlogged, and is asked again at the next run. */
    public static StartPlan checking() {
        return refused(new Refusal("", false));
    }

    /** A queue that must not start now. */
    public static StartPlan refused(Refusal refusal) {
        return new StartPlan(Optional.empty(), Map.of(), Optional.empty(), Optional.of(refusal));
    }

    public static StartPlan noPointer() {
        return new StartPlan(Optional.empty(), Map.of());
    }

    /** No pointer, but an open intent of window 1 starting at {@code tStart}. */
    public static StartPlan openIntent(long tStart) {
        return new StartPlan(Optional.empty(), Map.of(), Optional.of(tStart), Optional.empty());
    }

    /**
     * With a pointer the queue continues from it; without one, an open intent of window 1 starts
     * it at the intent's {@code tStart} (as from a pointer there); otherwise {@code start} decides,
     * latest at this pass's safeTime.
     */
    public StartDecision decide(StartMode start, long firstPassSafeTimeMicros) {
        if (pointer.isPresent()) {
            return StartDecision.pointer(pointer.get().tEnd());
        }
        if (openIntentStart.isPresent()) {
            return StartDecision.pointer(openIntentStart.get());
        }
        return start == StartMode.EARLIEST ? StartDecision.earliest() : StartDecision.latest(firstPassSafeTimeMicros);
    }

    /**
     * The windows' starting cut: with a pointer, its {@code k} and {@code tEnd} and every resume
     * position, so the checkpoint objects the windows write from here name the partitions that stay
     * quiet too, and the next start without state still resumes them exactly; empty otherwise.
     */
    public Optional<QueueCut> cut() {
        return pointer.map(p -> new QueueCut(p.k(), p.tEnd(), p.tEnd(), List.copyOf(positions.values()), List.of()));
    }

    public Optional<CheckpointDoc.Position> position(String partition) {
        return Optional.ofNullable(positions.get(partition));
    }
}
