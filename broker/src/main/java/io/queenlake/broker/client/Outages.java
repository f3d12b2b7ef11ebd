package io.queenlake.broker.client;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * The bookkeeping behind "one line when it fails, one line when it answers": per key (a component,
 * a queue), an outage opens at its first failed call, counts the failures that follow, and ends at
 * the first answered call, saying how long it lasted. Each caller logs in its own words (the
 * broker's, the bucket's and the catalog's outages) from what this returns. Thread-safe.
 */
public final class Outages {

    /** An outage that ended: how long it lasted and how many calls failed in it. */
    public record Ended(long seconds, long failures) {}

    private record Outage(long sinceNanos, long failures) {}

    private final LongSupplier nanoClock;
    private final Map<String, Outage> open = new HashMap<>();

    public Outages(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A call of {@code key} failed now; see {@link #failed(String, long)}. */
    public synchronized long failed(String key) {
        return failed(key, nanoClock.getAsLong());
    }

    /**
     * A call of {@code key} failed (or was found hanging since {@code sinceNanos}).
     *
     * @return the failures of the key's outage so far: 1 when this call opened it (the caller's WARN)
     */
    public synchronized long failed(String key, long sinceNanos) {
        Outage outage = open.get(key);
        long failures = outage == null ? 1 : outage.failures() + 1;
        open.put(key, new Outage(outage == null ? sinceNanos : outage.sinceNanos(), failures));
        return failures;
    }

    /** A call of {@code key} was answered: the outage it ends, if one was open (the caller's INFO). */
    public synchronized Optional<Ended> answered(String key) {
        Outage outage = open.remove(key);
        if (outage == null) {
            return Optional.empty();
        }
        return Optional.of(new Ended((nanoClock.getAsLong() - outage.sinceNanos()) / 1_000_000_000L, outage.failures()));
    }

    /** Whether {@code key}'s outage is open. */
    public synchronized boolean isOpen(String key) {
        return open.containsKey(key);
    }
}
