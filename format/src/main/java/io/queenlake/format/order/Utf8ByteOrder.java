package io.queenlake.format.order;

import java.util.Comparator;

/**
 * Orders names as their UTF-8 bytes compare (Rust's {@code String} order, the lake's partition
 * order) without encoding them. For well-formed Java strings this is code point order, which
 * differs from {@link String#compareTo} only when a surrogate (a supplementary character) meets a
 * char in U+E000..U+FFFF: UTF-16 puts the surrogate first, UTF-8 puts it last. At the first
 * differing char, both are shifted so surrogates sort above U+FFFF.
 */
public final class Utf8ByteOrder implements Comparator<String> {

    public static final Utf8ByteOrder INSTANCE = new Utf8ByteOrder();

    private Utf8ByteOrder() {}

    @Override
    public int compare(String a, String b) {
        if (a.equals(b)) {
            // The common call: an encoder checking that consecutive records of one partition are in
            // order, their names equal but distinct instances; equals is an intrinsic, the loop is not.
            return 0;
        }
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char ca = a.charAt(i);
            char cb = b.charAt(i);
            if (ca != cb) {
                if (ca >= 0xD800 && cb >= 0xD800) {
                    return fixUp(ca) - fixUp(cb);
                }
                return ca - cb;
            }
        }
        return a.length() - b.length();
    }

    /** Moves surrogates (D800..DFFF) above E000..FFFF, keeping each group's inner order. */
    private static int fixUp(char c) {
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }
}
