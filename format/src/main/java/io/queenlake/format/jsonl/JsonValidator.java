package io.queenlake.format.jsonl;

import java.util.Arrays;

/**
 * A streaming check that a payload is one JSON text (RFC 8259: any value, surrounding whitespace
 * allowed, strings well-formed UTF-8 without raw control characters). It builds no tree and, once
 * its nesting stack has grown, allocates nothing, because it runs once per record on the hot path.
 * Two things keep it cheap: it checks the payload where it was just copied into the line (in
 * cache, where a scan of the scattered originals would wait on memory), and it ends the text with
 * a NUL, which no JSON text holds raw, so every scan stops there without a bounds check. String
 * bodies, most of a payload, are scanned eight bytes at a time ({@link StringStops}). Not
 * thread-safe: one per encode call.
 */
final class JsonValidator {

    /** The kind of each open container: true for an object. */
    private boolean[] objects = new boolean[16];
    private boolean sawLineBreak;

    /** Whether the last valid text contained a raw {@code \n} or {@code \r} (always whitespace). */
    boolean sawLineBreak() {
        return sawLineBreak;
    }

    /**
     * Whether {@code b[from, to)} is one JSON text. Overwrites {@code b[to]}, which must exist,
     * with the NUL that ends every scan; bytes after it are never read as part of the text.
     */
    boolean isValid(byte[] b, int from, int to) {
        sawLineBreak = false;
        b[to] = 0;
        int depth = 0;
        boolean object = false;
        int p = ws(b, from);
        while (true) {
            // a value starts at p (the NUL at the end is no value's first byte)
            byte c = b[p];
            if (c == '"') {
                p = string(b, p + 1);
            } else if ((char) (c - '0') <= 9 || c == '-') {
                p = number(b, p);
            } else if (c == '{' || c == '[') {
                boolean opensObject = c == '{';
                p = ws(b, p + 1);
                if (b[p] == (opensObject ? '}' : ']')) {
                    p++;
                } else {
                    push(depth++, object);
                    object = opensObject;
                    if (!object) {
                        continue;
                    }
                    p = key(b, p);
                    if (p < 0) {
                        return false;
                    }
                    continue;
                }
            } else if (c == 't') {
                p = b[p + 1] == 'r' && b[p + 2] == 'u' && b[p + 3] == 'e' ? p + 4 : -1;
            } else if (c == 'f') {
                p = b[p + 1] == 'a' && b[p + 2] == 'l' && b[p + 3] == 's' && b[p + 4] == 'e' ? p + 5 : -1;
            } else if (c == 'n') {
                p = b[p + 1] == 'u' && b[p + 2] == 'l' && b[p + 3] == 'l' ? p + 4 : -1;
            } else {
                return false;
            }
            if (p < 0) {
                return false;
            }
            // after a value: close containers or move to the next element
            while (true) {
                p = ws(b, p);
                if (depth == 0) {
                    return p == to;
                }
                byte d = b[p];
                if (d == ',') {
                    p = ws(b, p + 1);
                    if (object) {
                        p = key(b, p);
                        if (p < 0) {
                            return false;
                        }
                    }
                    break;
                }
                if (d != (object ? '}' : ']')) {
                    return false;
                }
                object = objects[--depth];
                p++;
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

    /** Reads {@code "key"} then {@code :} and the whitespace after it; returns the value's start or -1. */
    private int key(byte[] b, int p) {
        if (b[p] != '"') {
            return -1;
        }
        p = ws(b, string(b, p + 1));
        if (p < 0 || b[p] != ':') {
            return -1;
        }
        return ws(b, p + 1);
    }

    /** Skips whitespace; -1 stays -1. */
    private int ws(byte[] b, int p) {
        if (p < 0) {
            return p;
        }
        while (true) {
            byte c = b[p];
            if (c > ' ') {
                return p; // the usual case: compact JSON has no whitespace at all
            }
            if (c == ' ' || c == '\t') {
                p++;
            } else if (c == '\n' || c == '\r') {
                sawLineBreak = true;
                p++;
            } else {
                return p;
            }
        }
    }

    /** Reads a string body from just after its opening quote; returns the position after the closing one, or -1. */
    private static int string(byte[] b, int p) {
        int wordEnd = b.length - Long.BYTES;
        while (true) {
            // a word may run past the NUL into unrelated bytes: the first stop is at or before the NUL
            while (p <= wordEnd) {
                long stops = StringStops.escapesOrNonAscii(StringStops.word(b, p));
                if (stops != 0) {
                    p += Long.numberOfTrailingZeros(stops) >>> 3;
                    break;
                }
                p += Long.BYTES;
            }
            int c = b[p] & 0xFF;
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
                p++; // an ordinary byte within the last word of the array, which the word loop leaves
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
        byte first = b[p];
        if (first == '0') {
            p++;
        } else if (first >= '1' && first <= '9') {
            p = digits(b, p + 1);
        } else {
            return -1;
        }
        if (b[p] == '.') {
            int start = ++p;
            p = digits(b, p);
            if (p == start) {
                return -1;
            }
        }
        if (b[p] == 'e' || b[p] == 'E') {
            p++;
            if (b[p] == '+' || b[p] == '-') {
                p++;
            }
            int start = p;
            p = digits(b, p);
            if (p == start) {
                return -1;
            }
        }
        return p;
    }

    private static int digits(byte[] b, int p) {
        while ((char) (b[p] - '0') <= 9) {
            p++;
        }
        return p;
    }

    private static boolean isHex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
