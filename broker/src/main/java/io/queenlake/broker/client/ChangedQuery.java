package io.queenlake.broker.client;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One {@code partitions/changed} entry: a page of a queue's partitions in creation order.
 *
 * @param sinceMicros only partitions written at or after this stamp; empty enumerates all
 * @param after the previous page's {@code next} cursor; empty for the first page
 * @param limit page size; the broker clamps it to [1, 1000]
 */
public record ChangedQuery(String queue, OptionalLong sinceMicros, Optional<String> after, int limit) {

    /** The broker's page-size ceiling, also its default. */
    public static final int MAX_LIMIT = 1000;

    public ChangedQuery {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(sinceMicros, "sinceMicros");
        Objects.requireNonNull(after, "after");
    }

    public static ChangedQuery firstPage(String queue, int limit) {
        return new ChangedQuery(queue, OptionalLong.empty(), Optional.empty(), limit);
    }

    public ChangedQuery after(String cursor) {
        return new ChangedQuery(queue, sinceMicros, Optional.of(cursor), limit);
    }
}
