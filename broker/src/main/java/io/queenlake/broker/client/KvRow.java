package io.queenlake.broker.client;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A stored KV row.
 *
 * @param value the stored JSON, {@link RawJson#NULL} for a stored null
 * @param expiresAtMicros empty for a row kept forever
 */
public record KvRow(String key, RawJson value, long version, OptionalLong expiresAtMicros, OptionalLong updatedAtMicros) {

    public KvRow {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(expiresAtMicros, "expiresAtMicros");
        Objects.requireNonNull(updatedAtMicros, "updatedAtMicros");
    }
}
