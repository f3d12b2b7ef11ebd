package io.queenlake.format.jsonl;

import java.nio.charset.StandardCharsets;

/**
 * Writes JSON strings exactly as serde_json (and Python's {@code json.dumps(s, ensure_ascii=False)})
 * do: {@code \" \\ \b \f \n \r \t}, every other C0 control as {@code \\u00xx} in lowercase hex,
 * {@code /}, DEL and all non-ASCII raw UTF-8. A lone surrogate, which no valid name contains, is
 * written as {@code ?} like Java's own UTF-8 encoder does.
 */
public final class JsonStringEscaper {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REPLACEMENT = {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private JsonStringEscaper() {}

    /** The quoted, escaped form of {@code s} as UTF-8 bytes. */
    public static byte[] quote(String s) {
        LineBuffer buf = new LineBuffer(s.length() + 16);
        quoteInto(s, buf);
        return buf.toByteArray();
    }

    /** The quoted, escaped form of {@code s} as a Java string. */
    public static String quoteToString(String s) {
        return new String(quote(s), StandardCharsets.UTF_8);
    }

    static void quoteInto(String s, LineBuffer out) {
        int n = s.length();
        out.ensure(n * 3 + 2);
        byte[] b = out.bytes;
        int p = out.size;
        b[p++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    b[p++] = (byte) c;
                } else {
                    out.size = p;
                    escapeAscii(c, out);
                    out.ensure((n - i) * 3 + 2); // escapes take up to 6 bytes, more than the 3 reserved
                    b = out.bytes;
                    p = out.size;
                }
            } else if (c < 0x800) {
                b[p++] = (byte) (0xC0 | c >> 6);
                b[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                b[p++] = (byte) (0xF0 | cp >> 18);
                b[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                b[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                b[p++] = (byte) (0x80 | cp & 0x3F);
            } else if (Character.isSurrogate(c)) {
                b[p++] = '?';
            } else {
                b[p++] = (byte) (0xE0 | c >> 12);
                b[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                b[p++] = (byte) (0x80 | c & 0x3F);
            }
        }
        b[p++] = '"';
        out.size = p;
    }

    /**
     * Writes arbitrary bytes as a JSON string: valid UTF-8 sequences raw (escaped where needed),
     * every byte that is not part of one as U+FFFD, as Rust's {@code String::from_utf8_lossy}.
     */
    static void quoteBytesInto(byte[] s, LineBuffer out) {
        out.put((byte) '"');
        int i = 0;
        while (i < s.length) {
            int b = s[i] & 0xFF;
            if (b < 0x80) {
                if (b >= 0x20 && b != '"' && b != '\\') {
                    out.put((byte) b);
                } else {
                    escapeAscii((char) b, out);
                }
                i++;
                continue;
            }
            int len = Utf8.sequenceLength(s, i);
            if (len > 0) {
                out.put(s, i, len);
                i += len;
            } else {
                out.put(REPLACEMENT);
                i += Math.max(1, -len);
            }
        }
        out.put((byte) '"');
    }

    private static void escapeAscii(char c, LineBuffer out) {
        out.ensure(6);
        byte[] b = out.bytes;
        int p = out.size;
        b[p++] = '\\';
        switch (c) {
            case '"' -> b[p++] = '"';
            case '\\' -> b[p++] = '\\';
            case '\b' -> b[p++] = 'b';
            case '\f' -> b[p++] = 'f';
            case '\n' -> b[p++] = 'n';
            case '\r' -> b[p++] = 'r';
            case '\t' -> b[p++] = 't';
            default -> {
                b[p++] = 'u';
                b[p++] = '0';
                b[p++] = '0';
                b[p++] = HEX[c >> 4];
                b[p++] = HEX[c & 0xF];
            }
        }
        out.size = p;
    }
}
