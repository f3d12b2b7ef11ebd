package io.queenlake.format.jsonl;

import io.queenlake.format.model.LogRecord;

/**
 * The one rule both formats apply to a payload: one JSON text in well-formed UTF-8 goes into the
 * lake as it is; anything else is rewritten as a JSON string of its lossy UTF-8 (each ill-formed
 * byte sequence as U+FFFD, as Rust's {@code String::from_utf8_lossy}). A real broker never sends
 * such a payload (serde_json refuses it at push and renders only valid JSON), so a rewrite means a
 * broker or a test fed the lake bytes no producer could have pushed: the job counts and logs each
 * one ({@code payloadsRewritten}) and {@code verify} names it. An empty payload is not rewritten.
 */
public final class PayloadText {

    private PayloadText() {}

    /** Whether the lake writes {@code record}'s payload as something other than its bytes. */
    public static boolean isRewritten(LogRecord record) {
        byte[] p = record.payload();
        if (p.length == 0) {
            return false;
        }
        if (record.payloadParsed() && StringStops.isAscii(p)) {
            return false; // a strict parser vouched for it, and ASCII leaves no UTF-8 question
        }
        return !isJson(p);
    }

    /** Whether {@code payload} is one JSON text in well-formed UTF-8. */
    public static boolean isJson(byte[] payload) {
        byte[] copy = new byte[payload.length + 1];
        System.arraycopy(payload, 0, copy, 0, payload.length);
        return new JsonValidator().isValid(copy, 0, payload.length);
    }

    /** What the lake writes for a payload that is not JSON: a JSON string of its lossy UTF-8. */
    public static byte[] asJsonString(byte[] payload) {
        LineBuffer out = new LineBuffer(payload.length + 16);
        JsonStringEscaper.quoteBytesInto(payload, out);
        return out.toByteArray();
    }

    /** Why a payload is rewritten, in a few words for a log line: the first ill-formed UTF-8 byte, or not JSON. */
    public static String whyRewritten(byte[] payload) {
        int i = 0;
        while (i < payload.length) {
            if (payload[i] >= 0) {
                i++;
                continue;
            }
            int len = Utf8.sequenceLength(payload, i);
            if (len < 0) {
                return String.format("byte 0x%02X at %d is not well-formed UTF-8", payload[i] & 0xFF, i);
            }
            i += len;
        }
        return "it is not one JSON text";
    }
}
