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

    /**
     * Java's UTF-8 encoder writes exactly the bytes wanted here (a lone surrogate as {@code ?}), and
     * for an ASCII string it is one vectorised check and a copy, far cheaper than a char loop: the
     * short-lived array is the price, paid once per transaction id (partitions are cached).
     */
    static void quoteInto(String s, LineBuffer out) {
        quoteUtf8Into(s.getBytes(StandardCharsets.UTF_8), out);
    }

    /** Writes well-formed UTF-8 as a JSON string: copied whole, then escaped from the first byte that needs it. */
    private static void quoteUtf8Into(byte[] utf8, LineBuffer out) {
        int n = utf8.length;
        out.ensure(n + 2);
        byte[] b = out.bytes;
        int start = out.size + 1;
        b[start - 1] = '"';
        System.arraycopy(utf8, 0, b, start, n);
        int stop = StringStops.firstEscape(b, start, start + n);
        if (stop == start + n) {
            b[stop] = '"';
            out.size = stop + 1;
            return;
        }
        out.size = stop;
        for (int i = stop - start; i < n; i++) {
            byte c = utf8[i];
            if (c == '"' || c == '\\' || (c >= 0 && c < 0x20)) {
                escapeAscii((char) c, out);
            } else {
                out.put(c);
            }
        }
        out.put((byte) '"');
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
