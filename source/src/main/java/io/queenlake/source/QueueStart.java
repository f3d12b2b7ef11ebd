package io.queenlake.source;

import io.queenlake.source.split.QueueCut;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A reader took the queue's split: everything else of the queue comes after this. {@code cut} is
 * what the split carried from a checkpoint (the last closed window's {@code k} and {@code tEnd},
 * the pointer's {@code tEnd}, the positions after the closed windows); empty for a queue the
 * checkpoint did not know, whose numbering continues from the commit pointer. {@code pointer} is
 * the queue's pointer and intent as the reader read them in a batch with the queues that started
 * with it; empty when that read failed, and the windows then read them themselves.
 */
@PublicEvolving
public record QueueStart(String queue, Optional<QueueCut> cut, Optional<PointerAtStart> pointer) implements QueueEvent {

    public QueueStart {
        java.util.Objects.requireNonNull(queue, "queue");
        cut = cut == null ? Optional.empty() : cut;
        pointer = pointer == null ? Optional.empty() : pointer;
    }

    /** A start whose pointer the windows read themselves. */
    public QueueStart(String queue, Optional<QueueCut> cut) {
        this(queue, cut, Optional.empty());
    }

    /** This start, with the pointer and intent read for it. */
    public QueueStart withPointer(PointerAtStart read) {
        return new QueueStart(queue, cut, Optional.of(read));
    }
}
