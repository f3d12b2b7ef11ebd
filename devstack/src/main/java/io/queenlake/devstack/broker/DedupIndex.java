package io.queenlake.devstack.broker;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The transaction ids a partition has seen within the dedup window, with the offset each was
 * stored at. It outlives retention (a trimmed record's id still deduplicates) and forgets ids
 * only when their window has passed.
 */
final class DedupIndex {

    static final long WINDOW_MICROS = 3_600L * 1_000_000L;

    record Seen(long offset, long stamp) {}

    /**
     * In append order, so stamps ascend from the head: forgetting stops at the first id still
     * inside the window instead of walking every id a busy partition ever saw (it runs every second).
     */
    private final LinkedHashMap<String, Seen> seen = new LinkedHashMap<>();

    /** The earlier append of {@code transactionId} that is still inside the window at {@code now}, or null. */
    Seen lookup(String transactionId, long nowMicros) {
        Seen s = seen.get(transactionId);
        if (s == null || s.stamp() < nowMicros - WINDOW_MICROS) {
            return null;
        }
        return s;
    }

    void remember(String transactionId, long offset, long stamp) {
        seen.remove(transactionId); // an id seen again after its window goes to the tail, with its new stamp
        seen.put(transactionId, new Seen(offset, stamp));
    }

    void forgetOlderThan(long stampFloor) {
        for (Iterator<Seen> it = seen.values().iterator(); it.hasNext(); ) {
            if (it.next().stamp() >= stampFloor) {
                return;
            }
            it.remove();
        }
    }

    /** Ids whose record is no longer stored (below {@code logStart}): a snapshot must keep them. */
    Map<String, Seen> trimmedBelow(long logStart) {
        Map<String, Seen> out = new LinkedHashMap<>();
        seen.forEach((id, s) -> {
            if (s.offset() < logStart) {
                out.put(id, s);
            }
        });
        return out;
    }
}
