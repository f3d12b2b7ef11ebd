package io.queenlake.broker.kv;

import io.queenlake.broker.client.RawJson;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.Optional;

/** Reads a stored lease document: empty for one that does not decode (its holder is then unknown). */
final class LeaseDocs {

    private LeaseDocs() {}

    static Optional<LeaseDoc> decode(RawJson value) {
        try {
            return Optional.of(LeaseDoc.fromJson(value.utf8()));
        } catch (RuntimeException unreadable) {
            return Optional.empty();
        }
    }
}
