package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.jsonl.JsonlObjectEncoder;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.window.ObjectLabels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * QueenSource marks its records' payloads as parsed, and the JSONL encoder then does not check them
 * again. That is only sound if whatever the fetch decoder lets through is a payload the encoder's
 * own check would accept: this feeds the real decoder near-JSON payloads and requires the lake's
 * lines to be byte-identical whether the payload is marked parsed or not.
 */
class DecodedPayloadsEncodeAlikeTest {

    private static final String[] SPACES = {"", "", " ", "\n", "\r\n", "\t", "\r", "\n  "};
    private static final String[] NUMBERS = {"0", "-0", "42.00", "1E+400", "-12.5e-3", "123456789012345678901234567890",
        "01", "1.", "+1", ".5", "1e", "NaN"};
    private static final String[] STRINGS = {"\"\"", "\"paid\"", "\"caff\u00e8 \u20ac \uD83D\uDE00\"", "\"\\u00e9\\n\"",
        "\"\\ud800\"", "\"say \\\"hi\\\"\"", "\"\\/\"", "\"\\x\"", "\"tab\tin\"", "\"\u0001\"", "\"\u007f\"", "'s'",
        "\"abcdefghijklmnopqrstuvwxyz0123456789\""};
    private static final String[] LITERALS = {"true", "false", "null", "tru", "nul"};

    /** A JSON-like text: mostly valid, with whitespace (line breaks too) between tokens and now and then a flaw. */
    private static String value(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 3 : 5);
        return switch (kind) {
            case 0 -> NUMBERS[random.nextInt(NUMBERS.length)];
            case 1 -> STRINGS[random.nextInt(STRINGS.length)];
            case 2 -> LITERALS[random.nextInt(LITERALS.length)];
            case 3 -> container(random, depth, "[", "]", false);
            default -> container(random, depth, "{", "}", true);
        };
    }

    private static String container(Random random, int depth, String open, String close, boolean object) {
        StringBuilder json = new StringBuilder(open);
        int members = random.nextInt(4);
        for (int i = 0; i < members; i++) {
            json.append(i == 0 ? "" : ",").append(space(random));
            if (object) {
                json.append(random.nextInt(40) == 0 ? "k" : "\"k" + i + "\"").append(space(random)).append(':').append(space(random));
            }
            json.append(value(random, depth + 1)).append(space(random));
        }
        if (random.nextInt(40) == 0) {
            json.append(','); // a trailing comma
        }
        return json.append(close).toString();
    }

    private static String space(Random random) {
        return SPACES[random.nextInt(SPACES.length)];
    }

    @Test
    void whateverTheDecoderAcceptsTheEncoderWritesAlikeParsedOrNot() throws IOException {
        Random random = new Random(20261203);
        List<LogRecord> parsed = new ArrayList<>();
        List<LogRecord> unchecked = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 40_000; i++) {
            byte[] payload = decodedPayload(value(random, 0));
            if (payload == null) {
                refused++;
                continue;
            }
            parsed.add(new LogRecord("p", "", parsed.size(), "", 0, payload, true));
            unchecked.add(new LogRecord("p", "", unchecked.size(), "", 0, payload.clone(), false));
        }
        assertThat(parsed.size()).as("payloads the decoder accepted").isGreaterThan(10_000);
        assertThat(refused).as("payloads the decoder refused").isGreaterThan(3_000);
        assertThat(parsed.stream().filter(r -> new String(r.payload(), StandardCharsets.UTF_8).contains("\r")).count())
                .as("accepted payloads with a raw carriage return").isGreaterThan(1_000);
        assertThat(Arrays.equals(encode(parsed), encode(unchecked))).as("lines parsed and unchecked").isTrue();
    }

    /** The payload as the fetch decoder slices it from a one-record answer, or null when it refuses the answer. */
    private static byte[] decodedPayload(String payload) {
        String body = "{\"entries\":[{\"queue\":\"q\",\"partition\":\"p\",\"records\":[{\"offset\":0,"
                + "\"transactionId\":\"t\",\"payload\":" + payload + ",\"ts\":\"2026-10-03T06:37:37.501942Z\"}],"
                + "\"highWatermark\":1,\"logStartOffset\":0}]}";
        try {
            List<FetchedPartition> answer = FetchDecoder.decode(body.getBytes(StandardCharsets.UTF_8),
                    List.of(FetchEntry.of("q", "p", 0, 1024)));
            List<FetchedRecord> records = answer.get(0).records();
            return records.size() == 1 ? records.get(0).payload() : null;
        } catch (IOException | RuntimeException refused) {
            return null;
        }
    }

    private static byte[] encode(List<LogRecord> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonlObjectEncoder.of(Compression.NONE).encode(records, new ObjectLabels("t", "q"), out);
        return out.toByteArray();
    }
}
