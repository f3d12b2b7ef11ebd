package io.queenlake.broker.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Bounded retries of retriable broker failures: {@code Retry-After} (delta-seconds) is honoured
 * exactly, with no jitter; otherwise the delay doubles from {@code firstBackoff} up to
 * {@code maxBackoff}. Terminal failures are rethrown at once.
 *
 * @param maxAttempts total calls, the first included (1 means no retry)
 */
public record RetryPolicy(int maxAttempts, Duration firstBackoff, Duration maxBackoff) {

    /** Waits between attempts; a test passes one that records instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration delay) throws InterruptedException;
    }

    private static final Sleeper THREAD_SLEEP = delay -> Thread.sleep(delay.toMillis());

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("a retry policy makes at least 1 attempt, was " + maxAttempts);
        }
        Objects.requireNonNull(firstBackoff, "firstBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (firstBackoff.isNegative() || maxBackoff.compareTo(firstBackoff) < 0) {
            throw new IllegalArgumentException(
                    "a retry policy's backoff must satisfy 0 <= first <= max, was " + firstBackoff + " and " + maxBackoff);
        }
    }

    /** 5 attempts, 100 ms doubling to 5 s. */
    public static RetryPolicy standard() {
        return new RetryPolicy(5, Duration.ofMillis(100), Duration.ofSeconds(5));
    }

    /**
     * The wait before attempt {@code nextAttempt} (2 for the first retry) after {@code failure},
     * or empty when the failure is terminal or the attempts are spent.
     */
    public Optional<Duration> delayBefore(int nextAttempt, QueenException failure) {
        if (!failure.retriable() || nextAttempt > maxAttempts) {
            return Optional.empty();
        }
        if (failure.retryAfterSeconds().isPresent()) {
            return Optional.of(Duration.ofSeconds(failure.retryAfterSeconds().getAsLong()));
        }
        int doublings = Math.min(nextAttempt - 2, 30);
        Duration backoff = firstBackoff.multipliedBy(1L << doublings);
        return Optional.of(backoff.compareTo(maxBackoff) > 0 ? maxBackoff : backoff);
    }

    public <T> T call(Supplier<T> call) {
        return call(call, THREAD_SLEEP);
    }

    /** Runs {@code call} until it succeeds, fails terminally, or the attempts are spent; the last failure is thrown. */
    public <T> T call(Supplier<T> call, Sleeper sleeper) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (QueenException failure) {
                Optional<Duration> delay = delayBefore(attempt + 1, failure);
                if (delay.isEmpty()) {
                    throw failure;
                }
                try {
                    sleeper.sleep(delay.get());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure.addSuppressed(e);
                    throw failure;
                }
            }
        }
    }
}
