package io.queenlake.broker.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Walks one complete {@code partitions/changed} pass: asks every queue's first page, then each
 * queue's {@code next} page until none is full, batching up to 1024 queues per call, and keeps
 * the minimum safeTime over all pages.
 *
 * <p>A pass asked for no queues is one call that answers safeTime alone.
 */
public final class ChangedPassWalker {

    /** The broker's per-call ceiling on entries. */
    static final int MAX_ENTRIES = 1024;

    private ChangedPassWalker() {}

    public static ChangedPass walk(QueenClient client, List<String> queues, OptionalLong sinceMicros, int limit) {
        if (queues.isEmpty()) {
            ChangedPage page = client.partitionsChanged(List.of());
            return new ChangedPass(page.safeTimeMicros(), Map.of(), Map.of(), 1);
        }
        Map<String, List<PartitionInfo>> partitions = new LinkedHashMap<>();
        Map<String, EntryError> errors = new HashMap<>();
        List<ChangedQuery> pending = new ArrayList<>();
        for (String queue : queues) {
            if (!partitions.containsKey(queue)) {
                partitions.put(queue, new ArrayList<>());
                pending.add(new ChangedQuery(queue, sinceMicros, Optional.empty(), limit));
            }
        }
        long safeTime = Long.MAX_VALUE;
        int calls = 0;
        while (!pending.isEmpty()) {
            List<ChangedQuery> batch = List.copyOf(pending.subList(0, Math.min(pending.size(), MAX_ENTRIES)));
            pending.subList(0, batch.size()).clear();
            ChangedPage page = client.partitionsChanged(batch);
            calls++;
            safeTime = Math.min(safeTime, page.safeTimeMicros());
            for (int i = 0; i < batch.size(); i++) {
                ChangedQuery asked = batch.get(i);
                ChangedEntry entry = page.entries().get(i);
                if (entry.error() != EntryError.NONE) {
                    errors.put(asked.queue(), entry.error());
                    partitions.remove(asked.queue());
                    continue;
                }
                partitions.get(asked.queue()).addAll(entry.partitions());
                if (entry.next().isPresent()) {
                    if (asked.after().equals(entry.next())) {
                        throw QueenException.mismatch(client.broker(), Route.PARTITIONS_CHANGED,
                                "queue '" + asked.queue() + "' answered the cursor it was given, "
                                        + entry.next().get() + ", as its next page");
                    }
                    pending.add(asked.after(entry.next().get()));
                }
            }
        }
        Map<String, List<PartitionInfo>> frozen = new LinkedHashMap<>();
        partitions.forEach((queue, list) -> frozen.put(queue, List.copyOf(list)));
        return new ChangedPass(safeTime, frozen, errors, calls);
    }
}
