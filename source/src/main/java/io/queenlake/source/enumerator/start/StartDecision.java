package io.queenlake.source.enumerator.start;

import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.source.split.PartitionSplit;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * Where one queue starts, decided once when the queue is first found without Flink state and kept
 * in the enumerator state so a restore never decides again (docs/ARCHITECTURE.md "Restore").
 *
 * <p>The rules, per partition of the queue's first complete pass:
 *
 * <ul>
 *   <li>{@link Kind#POINTER} (a commit pointer with {@code tEnd}): the resume position (bucket
 *       checkpoint and manifests since) for the same incarnation, else the first offset stamped at or after {@code tEnd}; records
 *       below {@code tEnd} are never emitted;
 *   <li>{@link Kind#LATEST} (no pointer, {@code start=latest}): only records stamped above the
 *       first pass's safeTime {@code S}, i.e. from {@code S + 1};
 *   <li>{@link Kind#EARLIEST} (no pointer, {@code start=earliest}): the partition's {@code logStart}.
 * </ul>
 *
 * <p>A partition or incarnation found after the first pass was created after a complete pass, so
 * every record in it is stamped above that pass's safeTime: it starts at its {@code logStart}
 * (still dropping records below {@code tEnd} for a pointer).
 *
 * <p>A partition whose last record is stamped below the start time holds nothing to read: it starts
 * after its last offset with no seek, so a start over many idle partitions costs no broker call.
 *
 * @param micros {@code tEnd} for a pointer, the first pass's safeTime for latest, unused for earliest
 */
@Internal
public record StartDecision(Kind kind, long micros) {

    /** How the queue's start was decided. */
    public enum Kind {
        LATEST,
        EARLIEST,
        POINTER
    }

    public StartDecision {
        Objects.requireNonNull(kind, "kind");
    }

    public static StartDecision latest(long firstSafeTimeMicros) {
        return new StartDecision(Kind.LATEST, firstSafeTimeMicros);
    }

    public static StartDecision earliest() {
        return new StartDecision(Kind.EARLIEST, 0);
    }

    public static StartDecision pointer(long tEndMicros) {
        return new StartDecision(Kind.POINTER, tEndMicros);
    }

    /** The split of a partition listed by the queue's first complete pass. */
    public PartitionSplit firstPassSplit(String queue, PartitionInfo p, Optional<CheckpointDoc.Position> resume) {
        switch (kind) {
            case EARLIEST:
                return PartitionSplit.atOffset(queue, p.name(), p.id(), Math.max(0, p.logStart()), Long.MIN_VALUE);
            case LATEST:
                return fromTime(queue, p, micros + 1);
            case POINTER:
                if (resume.isPresent() && sameIncarnation(resume.get(), p)) {
                    return PartitionSplit.atOffset(queue, p.name(), p.id(), resume.get().offset(), micros);
                }
                return fromTime(queue, p, micros);
            default:
                throw new IllegalStateException("unknown start kind " + kind);
        }
    }

    /** The split of a partition or incarnation found after the queue's first complete pass. */
    public PartitionSplit laterSplit(String queue, PartitionInfo p) {
        return laterSplit(queue, p.name(), p.id(), p.logStart());
    }

    /** The same, from the partition's name, incarnation and log start. */
    public PartitionSplit laterSplit(String queue, String partition, String partitionId, long logStart) {
        long skipBelow = kind == Kind.POINTER ? micros : Long.MIN_VALUE;
        return PartitionSplit.atOffset(queue, partition, partitionId, Math.max(0, logStart), skipBelow);
    }

    /** Records stamped below {@code fromMicros} are skipped: past the end when the partition has none at or above it. */
    private static PartitionSplit fromTime(String queue, PartitionInfo p, long fromMicros) {
        if (p.lastOffset() < 0 || p.lastWriteAtMicros() < fromMicros) {
            long next = Math.max(p.lastOffset() + 1, Math.max(0, p.logStart()));
            return PartitionSplit.atOffset(queue, p.name(), p.id(), next, fromMicros);
        }
        return PartitionSplit.atTime(queue, p.name(), p.id(), fromMicros);
    }

    /** A position without an id (the reference 1.5 form) is taken as the same incarnation. */
    private static boolean sameIncarnation(CheckpointDoc.Position position, PartitionInfo p) {
        return position.partitionId().isEmpty() || position.partitionId().equals(p.id());
    }

    @Override
    public String toString() {
        return switch (kind) {
            case LATEST -> "latest (records stamped after " + micros + ")";
            case EARLIEST -> "earliest (each partition's logStart)";
            case POINTER -> "the commit pointer (records stamped at or after tEnd " + micros + ")";
        };
    }
}
