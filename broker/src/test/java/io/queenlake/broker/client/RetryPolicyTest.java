package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private static final RetryPolicy POLICY = new RetryPolicy(5, Duration.ofMillis(100), Duration.ofMillis(350));

    private static QueenException unavailable() {
        return QueenException.status("http://b", Route.FETCH, 503, "busy", "retry", -1);
    }

    @Test
    void backoffDoublesFromTheFirstDelayUpToTheCap() {
        assertThat(POLICY.delayBefore(2, unavailable())).hasValue(Duration.ofMillis(100));
        assertThat(POLICY.delayBefore(3, unavailable())).hasValue(Duration.ofMillis(200));
        assertThat(POLICY.delayBefore(4, unavailable())).hasValue(Duration.ofMillis(350));
        assertThat(POLICY.delayBefore(5, unavailable())).hasValue(Duration.ofMillis(350));
    }

    @Test
    void retryAfterIsUsedExactlyEvenAboveTheCap() {
        QueenException limited = QueenException.status("http://b", Route.KV, 429, "overloaded", null, 7);
        assertThat(POLICY.delayBefore(2, limited)).hasValue(Duration.ofSeconds(7));
    }

    @Test
    void attemptsAreBoundedAndTheLastFailureIsThrown() {
        AtomicInteger calls = new AtomicInteger();
        List<Duration> slept = new ArrayList<>();
        assertThatThrownBy(() -> POLICY.call(() -> {
            calls.incrementAndGet();
            throw unavailable();
        }, slept::add)).isInstanceOf(QueenException.class).hasMessageContaining("(503 busy [retry])");
        assertThat(calls).hasValue(5);
        assertThat(slept).containsExactly(
                Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(350), Duration.ofMillis(350));
    }

    @Test
    void aTerminalFailureIsThrownAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> POLICY.call(() -> {
            calls.incrementAndGet();
            throw QueenException.status("http://b", Route.FETCH, 401, "Authentication required", null, -1);
        }, delay -> {
            throw new AssertionError("slept before a terminal failure");
        })).isInstanceOf(QueenException.class);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aPolicyThatCannotMakeOneAttemptIsRefused() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
                .hasMessage("a retry policy makes at least 1 attempt, was 0");
    }

    @Test
    void throughRateLimitsA429IsRetriedAfterItsRetryAfterAndTheCallSucceeds() {
        AtomicInteger calls = new AtomicInteger();
        List<Duration> slept = new ArrayList<>();
        String answer = RetryPolicy.rateLimits().callThroughRateLimits(() -> {
            if (calls.incrementAndGet() < 3) {
                throw QueenException.status("http://b", Route.KV, 429, "budget spent", "rate_limited", 2);
            }
            return "written";
        }, slept::add);
        assertThat(answer).isEqualTo("written");
        assertThat(calls).hasValue(3);
        // Retry-After is the floor: above the policy's own 250 ms first backoff.
        assertThat(slept).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2));
    }

    @Test
    void throughRateLimitsA429WithoutRetryAfterBacksOffAndTheAttemptsAreBounded() {
        AtomicInteger calls = new AtomicInteger();
        List<Duration> slept = new ArrayList<>();
        assertThatThrownBy(() -> RetryPolicy.rateLimits().callThroughRateLimits(() -> {
            calls.incrementAndGet();
            throw QueenException.status("http://b", Route.KV, 429, "budget spent", null, -1);
        }, slept::add)).isInstanceOf(QueenException.class).hasMessageContaining("rate limiting");
        assertThat(calls).hasValue(4);
        assertThat(slept).containsExactly(Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1));
    }

    @Test
    void throughRateLimitsEveryOtherFailureIsThrownAtOnceEvenARetriableOne() {
        AtomicInteger calls = new AtomicInteger();
        // A timed-out conditional put may have been applied: its caller decides, not a blind retry.
        assertThatThrownBy(() -> RetryPolicy.rateLimits().callThroughRateLimits(() -> {
            calls.incrementAndGet();
            throw unavailable();
        }, delay -> {
            throw new AssertionError("slept before a failure that is not a 429");
        })).isInstanceOf(QueenException.class).hasMessageContaining("503");
        assertThat(calls).hasValue(1);
    }
}
