package io.queenlake.broker.kv;

import io.queenlake.format.manifest.Committed;
import java.util.Optional;

/**
 * The commit pointer of one queue as this job last read or wrote it, with the KV version a
 * conditional write must expect, so the next write cannot overwrite a document it did not see.
 * (A pointer that does not decode is never observed: {@link UnreadableDocumentException}.)
 *
 * @param pointer empty only when the key does not exist
 * @param version 0 when the key does not exist
 */
public record ObservedPointer(Optional<Committed> pointer, long version) {

    public static ObservedPointer absent() {
        return new ObservedPointer(Optional.empty(), 0);
    }

    public long k() {
        return pointer.map(Committed::k).orElse(0L);
    }
}
