package io.queenlake.connector.window;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.run.RunSlice;
import io.queenlake.format.window.WindowContent;
import io.queenlake.format.window.WindowInput;
import io.queenlake.format.window.WindowRuns;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The records of a closed window, for tests that check which records a window holds: a window kept
 * as JSONL lines is read back line by line (offset, stamp and incarnation from the run's columns,
 * the transaction id and the payload from the line). The lake writes a payload that is not JSON as
 * a JSON string of its text, so a payload that reads as a JSON string is taken for such a one and
 * given back as its text: tests that read windows back never push a payload that is a JSON string.
 */
final class KeptRecords {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] PAYLOAD = ",\"payload\":".getBytes(StandardCharsets.US_ASCII);

    private KeptRecords() {}

    static List<LogRecord> of(ClosedWindow window) {
        return of(window.window());
    }

    static List<LogRecord> of(WindowContent window) {
        if (window instanceof WindowInput input) {
            return input.records();
        }
        List<LogRecord> records = new ArrayList<>();
        for (RunSlice run : ((WindowRuns) window).runs()) {
            for (int i = 0; i < run.size(); i++) {
                byte[] line = new byte[run.length(i)];
                run.read(i, line, 0);
                records.add(new LogRecord(run.partition(), run.partitionId(), run.offset(i), transactionId(line),
                        run.stamp(i), payload(line)));
            }
        }
        return records;
    }

    private static String transactionId(byte[] line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node.get("transactionId").asText();
        } catch (IOException e) {
            throw new UncheckedIOException("not a JSONL line: " + new String(line, StandardCharsets.UTF_8), e);
        }
    }

    /** The payload is the line's last field, spliced as it was: from after {@code "payload":} to the closing {@code }\n}. */
    private static byte[] payload(byte[] line) {
        int at = lastIndexOf(line, PAYLOAD) + PAYLOAD.length;
        byte[] raw = Arrays.copyOfRange(line, at, line.length - 2);
        if (Arrays.equals(raw, "null".getBytes(StandardCharsets.US_ASCII))) {
            return new byte[0];
        }
        if (raw.length > 0 && raw[0] == '"') {
            try {
                return JSON.readTree(raw).asText().getBytes(StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return raw;
    }

    private static int lastIndexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = haystack.length - needle.length; i >= 0; i--) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException("no payload in line " + new String(haystack, StandardCharsets.UTF_8));
    }
}
