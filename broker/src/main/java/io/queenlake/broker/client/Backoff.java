package io.queenlake.broker.client;

import java.time.Duration;
import java.util.Objects;

/**
 * The one pause rule of the project's retries: the pause after the {@code n}th failure in a row
 * doubles from {@code first} up to {@code longest}. The broker's retries ({@link RetryPolicy}), the
 * writer's staging and the committer's lanes pause by it.
 */
public record Backoff(Duration first, Duration longest) {

    /** Pauses of the lake's own retries (staging an object, a queue's commit): 200 ms doubling to 10 s. */
    public static final Backoff LAKE = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10));

    public Backoff {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(longest, "longest");
        if (first.isNegative() || longest.compareTo(first) < 0) {
            throw new IllegalArgumentException("a backoff must satisfy 0 <= first <= longest, was " + first + " and "
                    + longest);
        }
    }

    /** The pause after {@code failures} failures in a row (1 for the first). */
    public Duration after(int failures) {
        int doublings = Math.min(Math.max(failures, 1) - 1, 30);
        Duration pause = first.multipliedBy(1L << doublings);
        return pause.compareTo(longest) > 0 ? longest : pause;
    }
}
