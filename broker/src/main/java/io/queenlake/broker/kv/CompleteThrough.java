package io.queenlake.broker.kv;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The stamp below which every record of a queue is in a committed window, from the KV documents
 * alone (docs/ARCHITECTURE.md "Lag"): the pointer's {@code tEnd}, or further, the lease
 * holder's {@link LeaseDoc.Progress} once the pointer has reached the window that progress names.
 * So it moves on an idle queue (a checkpoint with nothing open closes the queue through its
 * frontier), and stands still when the committer cannot commit (the pointer stays behind).
 */
public final class CompleteThrough {

    private CompleteThrough() {}

    /** Empty when nothing is known: no pointer and no progress reached. */
    public static OptionalLong of(Optional<Committed> pointer, Optional<LeaseDoc.Progress> progress) {
        long k = pointer.map(Committed::k).orElse(0L);
        long through = pointer.map(Committed::tEnd).orElse(Long.MIN_VALUE);
        if (progress.isPresent() && progress.get().k() <= k) {
            through = Math.max(through, progress.get().closedThroughMicros());
        }
        return through == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(through);
    }

    /** {@code safeTime - completeThrough} in milliseconds, never negative; empty while nothing is known. */
    public static OptionalLong lagMillis(long safeTimeMicros, Optional<Committed> pointer, Optional<LeaseDoc.Progress> progress) {
        OptionalLong through = of(pointer, progress);
        return through.isPresent() ? OptionalLong.of(Math.max(0, safeTimeMicros - through.getAsLong()) / 1000)
                : OptionalLong.empty();
    }
}
