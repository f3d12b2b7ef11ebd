package io.queenlake.devstack.broker;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Queen's per-tenant budget of KV write calls: a token bucket per tenant holding at most one
 * second's worth ({@code ratePerSecond} tokens), refilled continuously. A write call takes a token;
 * with none left it is refused and told when the next one is free.
 */
final class KvWriteBudget {

    private final int ratePerSecond;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new HashMap<>();
    private long refused;

    private static final class Bucket {
        double tokens;
        long refilledAtNanos;
    }

    KvWriteBudget(int ratePerSecond, LongSupplier nanoTime) {
        if (ratePerSecond < 1) {
            throw new IllegalArgumentException("a KV write budget allows at least 1 call a second, was " + ratePerSecond);
        }
        this.ratePerSecond = ratePerSecond;
        this.nanoTime = nanoTime;
    }

    /** Takes one token of {@code tenant}'s bucket: 0 when taken, otherwise the milliseconds until one is free (nothing taken). */
    synchronized long take(String tenant) {
        long now = nanoTime.getAsLong();
        Bucket b = buckets.computeIfAbsent(tenant, t -> {
            Bucket fresh = new Bucket();
            fresh.tokens = ratePerSecond;
            fresh.refilledAtNanos = now;
            return fresh;
        });
        b.tokens = Math.min(ratePerSecond, b.tokens + (now - b.refilledAtNanos) * ratePerSecond / 1e9);
        b.refilledAtNanos = now;
        if (b.tokens >= 1) {
            b.tokens -= 1;
            return 0;
        }
        refused++;
        return Math.max(1, (long) Math.ceil((1 - b.tokens) * 1000 / ratePerSecond));
    }

    /** The write calls refused so far, every tenant's. */
    synchronized long refused() {
        return refused;
    }
}
