package io.queenlake.format.jsonl;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds, eight bytes at a time, where a plain run of JSON string text ends: the bytes a JSON
 * string cannot hold raw (quote, backslash, C0 control) and, for the validator, the first byte of
 * a UTF-8 sequence it must check. Most of a line is such plain runs, so this is the line builder's
 * inner loop. Words are read little-endian, so the lowest flagged byte is the first in the text;
 * each test may also flag bytes after a true hit (a borrow), never before one.
 */
final class StringStops {

    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = '"' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;
    private static final long SPACES = ' ' * ONES;

    private StringStops() {}

    /** The eight bytes at {@code p}, the byte at {@code p} lowest. */
    static long word(byte[] b, int p) {
        return (long) WORDS.get(b, p);
    }

    /** High bit set on each byte of {@code w} that is a quote, a backslash or below 0x20 (as the first hit). */
    static long escapes(long w) {
        long quote = w ^ QUOTES;
        long backslash = w ^ BACKSLASHES;
        return ((quote - ONES) & ~quote | (backslash - ONES) & ~backslash | (w - SPACES) & ~w) & HIGHS;
    }

    /**
     * High bit set on each byte of {@code w} that is a quote, a backslash, below 0x20 or at or above
     * 0x80 (as the first hit): where the validator must look. Cheaper than {@link #escapes} because
     * non-ASCII bytes are flagged anyway: a byte that would pass the quote or backslash test only
     * through its own high bit, or above 0x20 only by wrapping, is at or above 0x80 itself.
     */
    static long stops(long w) {
        return ((w ^ QUOTES) - ONES | (w ^ BACKSLASHES) - ONES | w - SPACES | w) & HIGHS;
    }

    /**
     * High bit set on each byte of {@code w} that is below 0x20 or at or above 0x80 (as the first
     * hit): in a text already known to be JSON, the only bytes the line builder must look at (a
     * raw line break to turn into a space, or the start of a UTF-8 sequence).
     */
    static long controlsOrHigh(long w) {
        return (w - SPACES | w) & HIGHS;
    }

    /** The index in {@code b} of the first byte in {@code [from, to)} that must be escaped, or {@code to}. */
    static int firstEscape(byte[] b, int from, int to) {
        int p = from;
        for (; p + Long.BYTES <= to; p += Long.BYTES) {
            long hits = escapes(word(b, p));
            if (hits != 0) {
                return p + (Long.numberOfTrailingZeros(hits) >>> 3);
            }
        }
        for (; p < to; p++) {
            int c = b[p];
            if (c == '"' || c == '\\' || (c >= 0 && c < 0x20)) {
                return p;
            }
        }
        return to;
    }

    /**
     * Whether every byte of {@code b} is below 0x80, eight at a time: the check every record's
     * payload meets twice on its way into the lake (counting rewrites when its window closes, and
     * encoding it), so a byte-at-a-time loop there costs a scan of the whole window each time.
     */
    static boolean isAscii(byte[] b) {
        long high = 0;
        int p = 0;
        for (; p + Long.BYTES <= b.length; p += Long.BYTES) {
            high |= word(b, p);
        }
        for (; p < b.length; p++) {
            high |= b[p]; // a byte at or above 0x80 sign-extends: its high bit lands in HIGHS
        }
        return (high & HIGHS) == 0;
    }
}
