package io.queenlake.broker.client;

/**
 * How long a KV write lives: exactly one of a TTL or forever, as the broker requires on every
 * put (there is no TTL inheritance).
 *
 * @param ttlSeconds above 0, or 0 for forever
 */
public record KvExpiry(long ttlSeconds) {

    public KvExpiry {
        if (ttlSeconds < 0) {
            throw new IllegalArgumentException("a KV TTL must be above 0 seconds, was " + ttlSeconds);
        }
    }

    public static KvExpiry forever() {
        return new KvExpiry(0);
    }

    public static KvExpiry seconds(long ttlSeconds) {
        if (ttlSeconds == 0) {
            throw new IllegalArgumentException("a KV TTL must be above 0 seconds; use KvExpiry.forever() for no expiry");
        }
        return new KvExpiry(ttlSeconds);
    }

    public boolean isForever() {
        return ttlSeconds == 0;
    }
}
