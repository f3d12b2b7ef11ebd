package io.queenlake.format.key;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The lake's escaping of tenant, queue and partition names in keys: every UTF-8 byte outside
 * {@code A-Z a-z 0-9 . _ -} becomes {@code %XX} (uppercase hex), so no name can leave its prefix or
 * add a directory. The same function as the broker's {@code percent_escape}.
 */
public final class NameEscaping {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private NameEscaping() {}

    public static String escape(String name) {
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        int unsafe = 0;
        for (byte b : utf8) {
            if (!isSafe(b)) {
                unsafe++;
            }
        }
        if (unsafe == 0) {
            return name;
        }
        byte[] out = new byte[utf8.length + 2 * unsafe];
        int n = 0;
        for (byte b : utf8) {
            if (isSafe(b)) {
                out[n++] = b;
            } else {
                out[n++] = '%';
                out[n++] = HEX[(b >> 4) & 0xF];
                out[n++] = HEX[b & 0xF];
            }
        }
        return new String(out, StandardCharsets.US_ASCII);
    }

    /**
     * The inverse of {@link #escape}, tolerant: a {@code %} not followed by two hex digits stays as
     * it is, lowercase hex is accepted, and bytes that are not valid UTF-8 decode to U+FFFD.
     */
    public static String unescape(String escaped) {
        if (escaped.indexOf('%') < 0) {
            return escaped;
        }
        byte[] in = escaped.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '%' && i + 2 < in.length && hex(in[i + 1]) >= 0 && hex(in[i + 2]) >= 0) {
                out.write(hex(in[i + 1]) << 4 | hex(in[i + 2]));
                i += 2;
            } else {
                out.write(in[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static boolean isSafe(byte b) {
        return (b >= 'A' && b <= 'Z') || (b >= 'a' && b <= 'z') || (b >= '0' && b <= '9')
                || b == '.' || b == '_' || b == '-';
    }

    private static int hex(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        if (b >= 'A' && b <= 'F') {
            return b - 'A' + 10;
        }
        if (b >= 'a' && b <= 'f') {
            return b - 'a' + 10;
        }
        return -1;
    }
}
