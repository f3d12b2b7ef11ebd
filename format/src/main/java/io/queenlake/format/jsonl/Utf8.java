package io.queenlake.format.jsonl;

/** UTF-8 well-formedness (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF). */
final class Utf8 {

    private Utf8() {}

    /**
     * The length of the well-formed multi-byte sequence starting at {@code i}, or minus the number
     * of bytes that form a maximal ill-formed prefix (at least one), as {@code from_utf8_lossy}
     * replaces them.
     */
    static int sequenceLength(byte[] s, int i) {
        int b0 = s[i] & 0xFF;
        int need;
        int lo = 0x80;
        int hi = 0xBF;
        if (b0 >= 0xC2 && b0 <= 0xDF) {
            need = 1;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            need = 2;
            if (b0 == 0xE0) {
                lo = 0xA0;
            } else if (b0 == 0xED) {
                hi = 0x9F;
            }
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            need = 3;
            if (b0 == 0xF0) {
                lo = 0x90;
            } else if (b0 == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return -1;
        }
        for (int k = 1; k <= need; k++) {
            if (i + k >= s.length) {
                return -k;
            }
            int b = s[i + k] & 0xFF;
            if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) {
                return -k;
            }
        }
        return need + 1;
    }
}
