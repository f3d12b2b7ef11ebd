package io.queenlake.devstack.broker;

import java.security.SecureRandom;
import java.util.UUID;

/** Mints UUIDv7 values (millisecond time first, then random bits), as the broker does for incarnations and transaction ids. */
final class TimeOrderedIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private TimeOrderedIds() {}

    static UUID mint(long nowMicros) {
        long millis = Math.max(0, nowMicros / 1_000L);
        long msb = (millis << 16) | 0x7000L | (RANDOM.nextInt() & 0x0fffL);
        long lsb = (RANDOM.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }
}
