package io.queenlake.source.event;

import io.queenlake.source.event.PassCompleted.PassPartition;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * A reader's copy of its listing, kept from {@link PassUpdate}s: each update applied in turn gives
 * the pass as if the enumerator had sent every row. Only the queues an update touches are rebuilt.
 * Not thread-safe: the reader's task thread only.
 */
@Internal
public final class PassListing {

    /** Per queue its rows by partition name, and the list a pass shows (rebuilt when they change). */
    private final Map<String, Map<String, PassPartition>> rows = new HashMap<>();
    private final Map<String, List<PassPartition>> shown = new HashMap<>();
    private long applied = PassUpdate.FULL;

    /**
     * The pass {@code update} completes, or empty when it is based on an update this listing never
     * applied (the reader then asks for the whole listing and keeps its last pass meanwhile).
     */
    public Optional<PassCompleted> apply(PassUpdate update) {
        if (update.isFull()) {
            rows.clear();
            shown.clear();
        } else if (update.basedOn() != applied) {
            return Optional.empty();
        }
        for (String queue : update.unlisted()) {
            rows.remove(queue);
            shown.remove(queue);
        }
        update.removed().forEach((queue, names) -> {
            Map<String, PassPartition> of = rows.get(queue);
            if (of != null) {
                of.keySet().removeAll(names);
                shown.put(queue, List.copyOf(of.values()));
            }
        });
        update.changed().forEach((queue, changed) -> {
            Map<String, PassPartition> of = rows.computeIfAbsent(queue, q -> new LinkedHashMap<>());
            for (PassPartition row : changed) {
                of.put(row.partition(), row);
            }
            shown.put(queue, List.copyOf(of.values()));
        });
        applied = update.sequence();
        return Optional.of(new PassCompleted(update.safeTimeMicros(), shown));
    }

    /** The sequence of the last update applied, {@link PassUpdate#FULL} before the first. */
    public long applied() {
        return applied;
    }
}
