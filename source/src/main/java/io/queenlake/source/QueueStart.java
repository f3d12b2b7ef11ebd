package io.queenlake.source;

import io.queenlake.source.split.QueueCut;
import java.util.Optional;

/**
 * A reader took the queue's split: everything else of the queue comes after this. {@code cut} is
 * what the split carried from a checkpoint (the last closed window's {@code k} and {@code tEnd},
 * the pointer's {@code tEnd}, the positions after the closed windows); empty for a queue the
 * checkpoint did not know, whose numbering continues from the commit pointer.
 */
public record QueueStart(String queue, Optional<QueueCut> cut) implements QueueEvent {

    public QueueStart {
        java.util.Objects.requireNonNull(queue, "queue");
        cut = cut == null ? Optional.empty() : cut;
    }
}
