package io.queenlake.broker.client;

import java.util.List;

/**
 * One {@code partitions/changed} answer.
 *
 * @param safeTimeMicros the greatest stamp the answering node has applied, read before the rows:
 *     every record stamped at or below it is in the rows and readable by fetch on the same node
 */
public record ChangedPage(long safeTimeMicros, boolean safeTimeDegraded, List<ChangedEntry> entries) {

    public ChangedPage {
        entries = List.copyOf(entries);
    }
}
