package io.queenlake.format.jsonl;

import java.util.Arrays;

/**
 * A streaming check that a payload is one JSON text (RFC 8259: any value, surrounding whitespace
 * allowed, strings well-formed UTF-8 without raw control characters). It builds no tree and, once
 * its nesting stack has grown, allocates nothing, because it runs once per record on the hot path.
 * It checks the payload where it was just copied into the line (in cache) and ends the text with
 * a NUL, which no JSON text holds raw, so every scan stops there without a bounds check. String
 * bodies, most of a payload, are scanned eight bytes at a time ({@link StringStops}). Not
 * thread-safe: one per encode call.
 */
final class JsonValidator {

    /** The kind of each open container: true for an object. */
    private boolean[] objects = new boolean[16];

    /**
     * Whether {@code b[from, to)} is one JSON text. Overwrites {@code b[to]}, which must exist,
     * with the NUL that ends every scan; bytes after it are never read as part of the text. On the
     * way it turns every raw {@code \n} and {@code \r} it passes into a space: in a valid text they
     * can only be whitespace between tokens, and a line must not hold them. In an invalid text
     * some may have been turned already, so the caller must not use those bytes then.
     */
    boolean isValid(byte[] b, int from, int to) {
        b[to] = 0;
        int depth = 0;
        boolean object = false;
        int p = from;
        while (true) {
            // a value starts at p; the branches go from the most frequent kind down
            int c = b[p];
            if (c == '"') {
                p = string(b, p + 1);
            } else if ((char) (c - '0') <= 9 || c == '-') {
                p = number(b, p);
            } else if (c == '{' || c == '[') {
                push(depth++, object);
                object = c == '{';
                p++;
                int d = b[p];
                if (d <= ' ') {
                    p = ws(b, p);
                    d = b[p];
                }
                if (d == (object ? '}' : ']')) {
                    object = objects[--depth];
                    p++;
                } else if (object) {
                    p = key(b, p);
                    if (p < 0) {
                        return false;
                    }
                    continue;
                } else {
                    continue;
                }
            } else if (c == 't') {
                p = b[p + 1] == 'r' && b[p + 2] == 'u' && b[p + 3] == 'e' ? p + 4 : -1;
            } else if (c == 'f') {
                p = b[p + 1] == 'a' && b[p + 2] == 'l' && b[p + 3] == 's' && b[p + 4] == 'e' ? p + 5 : -1;
            } else if (c == 'n') {
                p = b[p + 1] == 'u' && b[p + 2] == 'l' && b[p + 3] == 'l' ? p + 4 : -1;
            } else if (isWhitespace(c)) {
                p = ws(b, p);
                continue;
            } else {
                return false;
            }
            if (p < 0) {
                return false;
            }
            // after a value: the next element, the end of containers, or the end of the text
            while (true) {
                int d = b[p];
                if (d == ',' && depth > 0) {
                    p++;
                    if (object) {
                        p = key(b, p);
                        if (p < 0) {
                            return false;
                        }
                    }
                    break;
                }
                if (d == (object ? '}' : ']') && depth > 0) {
                    object = objects[--depth];
                    p++;
                } else if (isWhitespace(d)) {
                    p = ws(b, p);
                } else {
                    return depth == 0 && p == to;
                }
            }
        }
    }

    /** Remembers, at {@code depth}, the kind of the container that encloses the one being opened. */
    private void push(int depth, boolean enclosingIsObject) {
        if (depth == objects.length) {
            objects = Arrays.copyOf(objects, depth * 2);
        }
        objects[depth] = enclosingIsObject;
    }

    /** Reads {@code "key"} and the {@code :} after it; returns the position after the colon, or -1. */
    private static int key(byte[] b, int p) {
        if (b[p] != '"') {
            p = ws(b, p);
            if (b[p] != '"') {
                return -1;
            }
        }
        p = string(b, p + 1);
        if (p < 0) {
            return -1;
        }
        if (b[p] != ':') {
            p = ws(b, p);
            if (b[p] != ':') {
                return -1;
            }
        }
        return p + 1;
    }

    private static boolean isWhitespace(int c) {
        return c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /** Skips whitespace, turning line breaks into spaces. */
    private static int ws(byte[] b, int p) {
        while (true) {
            byte c = b[p];
            if (c == ' ' || c == '\t') {
                p++;
            } else if (c == '\n' || c == '\r') {
                b[p++] = ' ';
            } else {
                return p;
            }
        }
    }

    /** Reads a string body from just after its opening quote; returns the position after the closing one, or -1. */
    private static int string(byte[] b, int p) {
        int wordEnd = b.length - Long.BYTES;
        while (true) {
            int c;
            // a word may run past the NUL into unrelated bytes: the first stop is at or before the NUL
            if (p <= wordEnd) {
                long w = StringStops.word(b, p);
                long stops = StringStops.stops(w);
                if (stops == 0) {
                    p += Long.BYTES;
                    continue;
                }
                int bit = Long.numberOfTrailingZeros(stops);
                p += bit >>> 3;
                c = (int) (w >>> (bit & 0x38)) & 0xFF; // the stop byte itself, without reading it again
            } else {
                c = b[p] & 0xFF;
            }
            if (c == '"') {
                return p + 1;
            }
            if (c == '\\') {
                byte e = b[p + 1];
                if (e == 'u') {
                    if (!isHex(b[p + 2]) || !isHex(b[p + 3]) || !isHex(b[p + 4]) || !isHex(b[p + 5])) {
                        return -1;
                    }
                    p += 6;
                } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r'
                        || e == 't') {
                    p += 2;
                } else {
                    return -1;
                }
            } else if (c < 0x20) {
                return -1; // a raw control character, or the NUL: the text ends inside a string
            } else if (c < 0x80) {
                p++; // an ordinary byte in the array's last seven, where no whole word fits
            } else {
                int len = Utf8.sequenceLength(b, p);
                if (len < 0) {
                    return -1;
                }
                p += len;
            }
        }
    }

    private static int number(byte[] b, int p) {
        if (b[p] == '-') {
            p++;
        }
        int c = b[p];
        if (c == '0') {
            c = b[++p];
        } else if ((char) (c - '1') <= 8) {
            do {
                c = b[++p];
            } while ((char) (c - '0') <= 9);
        } else {
            return -1;
        }
        if (c == '.') {
            c = b[++p];
            if ((char) (c - '0') > 9) {
                return -1;
            }
            do {
                c = b[++p];
            } while ((char) (c - '0') <= 9);
        }
        if ((c | 0x20) == 'e') {
            c = b[++p];
            if (c == '+' || c == '-') {
                c = b[++p];
            }
            if ((char) (c - '0') > 9) {
                return -1;
            }
            do {
                c = b[++p];
            } while ((char) (c - '0') <= 9);
        }
        return p;
    }

    private static boolean isHex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
