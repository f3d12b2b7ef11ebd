package io.queenlake.broker.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded retries of retriable broker failures: {@code Retry-After} (delta-seconds) is honoured
 * exactly, with no jitter; otherwise the delay doubles from {@code firstBackoff} up to
 * {@code maxBackoff} ({@link Backoff}). Terminal failures are rethrown at once.
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
     * 4 attempts, 250 ms doubling to 2 s unless the broker says {@code Retry-After}: for a call the
     * broker refused as over its rate (429), which changed nothing. Short enough that a lease round
     * stuck behind it still refreshes well within the lease's TTL.
     */
    public static RetryPolicy rateLimits() {
        return new RetryPolicy(4, Duration.ofMillis(250), Duration.ofSeconds(2));
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
        return Optional.of(new Backoff(firstBackoff, maxBackoff).after(nextAttempt - 1));
    }

    public <T> T call(Supplier<T> call) {
        return call(call, THREAD_SLEEP);
    }

    /** Runs {@code call} until it succeeds, fails terminally, or the attempts are spent; the last failure is thrown. */
    public <T> T call(Supplier<T> call, Sleeper sleeper) {
        return call(call, failure -> true, sleeper);
    }

    /**
     * Runs {@code call}, retrying only refusals as over the broker's rate (429), each after the
     * broker's {@code Retry-After} when it sent one; every other failure is thrown at once. Such a
     * refusal changed nothing, so even a conditional KV write may simply go again, where after a
     * timeout it might already have been applied.
     */
    public <T> T callThroughRateLimits(Supplier<T> call, Sleeper sleeper) {
        return call(call, RetryPolicy::rateLimited, sleeper);
    }

    public <T> T callThroughRateLimits(Supplier<T> call) {
        return callThroughRateLimits(call, THREAD_SLEEP);
    }

    private static boolean rateLimited(QueenException failure) {
        return failure.kind() == QueenException.Kind.STATUS && failure.status() == 429;
    }

    private <T> T call(Supplier<T> call, Predicate<QueenException> retried, Sleeper sleeper) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (QueenException failure) {
                Optional<Duration> delay = retried.test(failure) ? delayBefore(attempt + 1, failure) : Optional.empty();
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
