package io.queenlake.job.verify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Whether a payload read back from an object is what the format makes of the pushed one: Parquet
 * keeps it raw (NULL when empty); JSONL splices valid JSON with raw line breaks as spaces
 * ({@code null} when empty) and writes anything else as a JSON string of its text.
 */
final class StoredPayload {

    private static final JsonFactory JSON = new JsonFactory();

    private StoredPayload() {}

    static boolean matches(byte[] pushed, byte[] stored) {
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
        if (Arrays.equals(spaced, stored)) {
            return true;
        }
        try (JsonParser p = JSON.createParser(stored)) {
            return p.nextToken() == JsonToken.VALUE_STRING
                    && p.getText().equals(new String(pushed, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }
}
