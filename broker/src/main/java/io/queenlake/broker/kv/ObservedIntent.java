package io.queenlake.broker.kv;

import io.queenlake.format.manifest.Intent;
import java.util.Optional;

/**
 * A queue's intent document as this job last read or wrote it, with the KV version the next
 * conditional write must expect.
 *
 * @param version 0 when the key does not exist
 */
public record ObservedIntent(Optional<Intent> intent, long version) {

    public static ObservedIntent absent() {
        return new ObservedIntent(Optional.empty(), 0);
    }

    /** The intent, when it names the window right after a pointer at {@code committedK}: a window to finish. */
    public Optional<Intent> openAbove(long committedK) {
        return intent.filter(i -> i.k() == committedK + 1);
    }
}
