package io.queenlake.format.jsonl;

/**
 * A streaming check that a payload is one JSON text (RFC 8259: any value, surrounding whitespace
 * allowed, strings well-formed UTF-8 without raw control characters). It builds no tree and, once
 * its nesting stack has grown, allocates nothing, because it runs once per record on the hot path.
 * Not thread-safe: one per encode call.
 */
final class JsonValidator {

    private boolean[] inObject = new boolean[16];
    private boolean sawLineBreak;

    /** Whether the last valid text contained a raw {@code \n} or {@code \r} (always whitespace). */
    boolean sawLineBreak() {
        return sawLineBreak;
    }

    boolean isValid(byte[] s) {
        sawLineBreak = false;
        try {
            return check(s);
        } catch (ArrayIndexOutOfBoundsException truncated) {
            return false;
        }
    }

    private boolean check(byte[] s) {
        int n = s.length;
        int depth = 0;
        int p = ws(s, 0);
        if (p >= n) {
            return false;
        }
        while (true) {
            // a value starts at p
            byte c = s[p];
            boolean closed = false;
            switch (c) {
                case '{' -> {
                    p = ws(s, p + 1);
                    if (s[p] == '}') {
                        p++;
                        closed = true;
                    } else {
                        push(depth++, true);
                        p = key(s, p);
                        if (p < 0) {
                            return false;
                        }
                        continue;
                    }
                }
                case '[' -> {
                    p = ws(s, p + 1);
                    if (s[p] == ']') {
                        p++;
                        closed = true;
                    } else {
                        push(depth++, false);
                        continue;
                    }
                }
                case '"' -> p = string(s, p);
                case 't' -> p = literal(s, p, "true");
                case 'f' -> p = literal(s, p, "false");
                case 'n' -> p = literal(s, p, "null");
                default -> p = number(s, p);
            }
            if (p < 0) {
                return false;
            }
            // after a value: close containers or move to the next element
            while (true) {
                p = ws(s, p);
                if (depth == 0) {
                    return p == n;
                }
                if (p >= n) {
                    return false;
                }
                byte d = s[p];
                boolean object = inObject[depth - 1];
                if (d == ',') {
                    p = ws(s, p + 1);
                    if (object) {
                        p = key(s, p);
                        if (p < 0) {
                            return false;
                        }
                    }
                    break;
                }
                if ((object && d == '}') || (!object && d == ']')) {
                    depth--;
                    p++;
                    continue;
                }
                return false;
            }
            if (p >= n) {
                return false;
            }
        }
    }

    private void push(int depth, boolean object) {
        if (depth == inObject.length) {
            inObject = java.util.Arrays.copyOf(inObject, depth * 2);
        }
        inObject[depth] = object;
    }

    /** Reads {@code "key"} then {@code :} and the whitespace after it; returns the value's start or -1. */
    private int key(byte[] s, int p) {
        if (s[p] != '"') {
            return -1;
        }
        p = string(s, p);
        if (p < 0) {
            return -1;
        }
        p = ws(s, p);
        if (s[p] != ':') {
            return -1;
        }
        return ws(s, p + 1);
    }

    private int ws(byte[] s, int p) {
        while (p < s.length) {
            byte b = s[p];
            if (b == ' ' || b == '\t') {
                p++;
            } else if (b == '\n' || b == '\r') {
                sawLineBreak = true;
                p++;
            } else {
                break;
            }
        }
        return p;
    }

    private static int string(byte[] s, int p) {
        p++;
        while (true) {
            int b = s[p] & 0xFF;
            if (b == '"') {
                return p + 1;
            }
            if (b == '\\') {
                byte e = s[p + 1];
                switch (e) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> p += 2;
                    case 'u' -> {
                        for (int k = 2; k < 6; k++) {
                            if (!isHex(s[p + k])) {
                                return -1;
                            }
                        }
                        p += 6;
                    }
                    default -> {
                        return -1;
                    }
                }
            } else if (b < 0x20) {
                return -1;
            } else if (b < 0x80) {
                p++;
            } else {
                int len = Utf8.sequenceLength(s, p);
                if (len < 0) {
                    return -1;
                }
                p += len;
            }
        }
    }

    private static int literal(byte[] s, int p, String word) {
        for (int k = 0; k < word.length(); k++) {
            if (p + k >= s.length || s[p + k] != word.charAt(k)) {
                return -1;
            }
        }
        return p + word.length();
    }

    private static int number(byte[] s, int p) {
        int n = s.length;
        if (p < n && s[p] == '-') {
            p++;
        }
        if (p >= n) {
            return -1;
        }
        if (s[p] == '0') {
            p++;
        } else if (s[p] >= '1' && s[p] <= '9') {
            p = digits(s, p);
        } else {
            return -1;
        }
        if (p < n && s[p] == '.') {
            int start = ++p;
            p = digits(s, p);
            if (p == start) {
                return -1;
            }
        }
        if (p < n && (s[p] == 'e' || s[p] == 'E')) {
            p++;
            if (p < n && (s[p] == '+' || s[p] == '-')) {
                p++;
            }
            int start = p;
            p = digits(s, p);
            if (p == start) {
                return -1;
            }
        }
        return p;
    }

    private static int digits(byte[] s, int p) {
        while (p < s.length && s[p] >= '0' && s[p] <= '9') {
            p++;
        }
        return p;
    }

    private static boolean isHex(byte b) {
        return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
    }
}
