package io.queenlake.devstack.broker;

/**
 * One KV document: its value as the raw JSON text it was put with, its version from the broker's
 * global sequence, its expiry (0 = forever) and the time of its last write, all in microseconds.
 */
record KvRow(byte[] value, long version, long expiresAtMicros, long updatedAtMicros) {

    boolean expiredAt(long nowMicros) {
        return expiresAtMicros != 0 && expiresAtMicros <= nowMicros;
    }
}
