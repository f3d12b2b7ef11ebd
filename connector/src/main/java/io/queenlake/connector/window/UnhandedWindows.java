package io.queenlake.connector.window;

import io.queenlake.format.manifest.CheckpointDoc;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One queue's closed windows the writer chained behind has not handed on yet, each with the
 * numbering before it: while one is here, the checkpoint's cut stays before it and its records
 * count as open (a restore reads them again). Without a writer chained behind, nothing is kept.
 */
final class UnhandedWindows {

    /** A closed window not handed on, where a restore would read it again (not its records: the writer holds those). */
    record Unhanded(long k, long prevEnd, List<CheckpointDoc.Position> prevPositions,
            Map<String, Map<String, OldestOpen.Oldest>> oldest) {}

    private final String queue;
    private final Optional<WindowHandover> handover;
    private final ArrayDeque<Unhanded> windows = new ArrayDeque<>();

    UnhandedWindows(String queue, Optional<WindowHandover> handover) {
        this.queue = queue;
        this.handover = handover;
    }

    /** Whether closed windows are tracked at all (a writer is chained behind). */
    boolean tracking() {
        return handover.isPresent();
    }

    void closed(Unhanded window) {
        windows.addLast(window);
    }

    /** The oldest closed window not handed on, after forgetting those handed on since. */
    Optional<Unhanded> first() {
        forgetHandedOn();
        return Optional.ofNullable(windows.peekFirst());
    }

    /** The oldest open records of the windows not handed on, into {@code oldest}. */
    void addOldest(OldestOpen oldest) {
        for (Unhanded closed : windows) {
            oldest.merge(closed.oldest());
        }
    }

    void clear() {
        windows.clear();
    }

    /** Drops the closed windows the writer has handed on since. */
    void forgetHandedOn() {
        if (handover.isEmpty() || windows.isEmpty()) {
            return;
        }
        long handed = handover.get().handedThrough(queue);
        while (!windows.isEmpty() && windows.peekFirst().k() <= handed) {
            windows.pollFirst();
        }
    }
}
