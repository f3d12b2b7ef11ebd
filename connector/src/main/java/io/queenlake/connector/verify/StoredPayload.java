package io.queenlake.connector.verify;

import io.queenlake.format.jsonl.PayloadText;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Whether a payload read back from an object is what the format makes of the pushed one: Parquet
 * keeps it raw (NULL when empty); JSONL splices valid JSON with raw line breaks as spaces
 * ({@code null} when empty). Both write a payload that is not one JSON text in well-formed UTF-8
 * as a JSON string of its lossy UTF-8: that is a {@link Match#REWRITTEN} payload, never a silent
 * match, since the lake no longer holds what was pushed.
 */
final class StoredPayload {

    enum Match { EXACT, REWRITTEN, DIFFERENT }

    private StoredPayload() {}

    static Match match(byte[] pushed, byte[] stored) {
        if (pushed.length > 0 && !PayloadText.isJson(pushed)) {
            return stored != null && Arrays.equals(stored, PayloadText.asJsonString(pushed))
                    ? Match.REWRITTEN : Match.DIFFERENT;
        }
        return matches(pushed, stored) ? Match.EXACT : Match.DIFFERENT;
    }

    private static boolean matches(byte[] pushed, byte[] stored) {
        if (stored == null) {
            return pushed.length == 0;
        }
        if (Arrays.equals(pushed, stored)) {
            return true;
        }
        if (pushed.length == 0) {
            return Arrays.equals(stored, "null".getBytes(StandardCharsets.US_ASCII));
        }
        byte[] spaced = pushed.clone();
        for (int i = 0; i < spaced.length; i++) {
            if (spaced[i] == '\n' || spaced[i] == '\r') {
                spaced[i] = ' ';
            }
        }
        return Arrays.equals(spaced, stored);
    }
}
