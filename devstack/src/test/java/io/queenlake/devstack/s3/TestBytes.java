package io.queenlake.devstack.s3;

import java.io.ByteArrayOutputStream;
import java.util.Random;

/** Object bodies for the tests: seeded random bytes (reproducible) and their concatenation. */
final class TestBytes {

    static final int MIB = 1024 * 1024;

    private TestBytes() {}

    static byte[] random(long seed, int length) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    static byte[] concat(byte[]... arrays) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] array : arrays) {
            out.writeBytes(array);
        }
        return out.toByteArray();
    }
}
