package io.queenlake.broker.kv;

import io.queenlake.format.manifest.Committed;
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

    /** The intent, when it is open after {@code pointer} ({@link Intent#isOpenAfter}): a window to finish. */
    public Optional<Intent> openAfter(Optional<Committed> pointer) {
        return intent.filter(i -> i.isOpenAfter(pointer));
    }
}
