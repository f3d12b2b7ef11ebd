package io.queenlake.format.testutils;

import java.security.MessageDigest;
import java.util.HexFormat;

/** sha256 in lowercase hex, computed independently of the code under test. */
public final class Sha256 {

    private Sha256() {}

    public static String hex(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
