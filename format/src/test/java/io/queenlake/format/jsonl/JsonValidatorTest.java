package io.queenlake.format.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonValidatorTest {

    private static boolean valid(byte[] text) {
        return valid(text, new byte[0]);
    }

    /** Validates {@code text} where the encoder does: inside a larger buffer, followed by other bytes. */
    private static boolean valid(byte[] text, byte[] after) {
        byte[] buffer = new byte[3 + text.length + 1 + after.length];
        Arrays.fill(buffer, (byte) '7');
        System.arraycopy(text, 0, buffer, 3, text.length);
        System.arraycopy(after, 0, buffer, 3 + text.length + 1, after.length);
        return new JsonValidator().isValid(buffer, 3, 3 + text.length);
    }

    private static boolean valid(String text) {
        return valid(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyKindOfJsonTextIsAccepted() {
        for (String text : List.of("0", "-0", "42.00", "-1.5e+10", "2E-3", "1e5", "123456789012345678901234567890",
                "true", "false", "null", "\"\"", "\"plain\"", "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00\"",
                "\"caff\u00e8 \u20ac \uD83D\uDE00 \u007f\"", "{}", "[]", "{ }", "[ ]", " 1 ", "\t\n\r 1 \r\n\t",
                "{\"a\":1,\"b\":[true,false,null,\"x\",{\"c\":{}}],\"d\":-0.5}", "[".repeat(40) + "1" + "]".repeat(40),
                "{\"a\":".repeat(40) + "[]" + "}".repeat(40),
                "{ \"a\" : [ 1 , 2 ] , \"b\" : { } }", "[\"a very long string that spans several eight byte words\"]")) {
            assertThat(valid(text)).as(text).isTrue();
        }
    }

    @Test
    void whatIsNotExactlyOneJsonTextIsRefused() {
        for (String text : List.of("", " ", "01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1 2", "{} {}", "tru",
                "truex", "nul", "False", "NaN", "Infinity", "'a'", "\"abc", "\"\\x\"", "\"\\u12G4\"", "\"\\u12\"",
                "\"tab\tinside\"", "\"line\ninside\"", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{a:1}", "{\"a\":1,}",
                "[1,]", "[,1]", "[1 2]", "{\"a\":1]", "[1}", "[", "]", "{", "}", ",", "\"a\":1", "[1]]", "{\"a\":1}}",
                "\u00001", "1\u0000", "[1\u0000]", "\"a\u0000\"",
                "[".repeat(40) + "1" + "]".repeat(39))) {
            assertThat(valid(text)).as(text).isFalse();
        }
    }

    @Test
    void illFormedUtf8InsideAStringIsRefused() {
        byte[][] sequences = {
            {(byte) 0x80}, // lone continuation byte
            {(byte) 0xC0, (byte) 0xAF}, // overlong '/'
            {(byte) 0xC3}, // truncated two-byte sequence
            {(byte) 0xE2, (byte) 0x82}, // truncated three-byte sequence
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // UTF-16 surrogate
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xFF},
        };
        for (byte[] bad : sequences) {
            for (int at = 0; at < 12; at++) {
                byte[] text = stringWith(at, bad);
                assertThat(valid(text)).as("%s at %d", Arrays.toString(bad), at).isFalse();
            }
        }
    }

    @Test
    void aStopAtAnyPlaceInAnEightByteWordIsSeen() {
        for (int at = 0; at < 20; at++) {
            assertThat(valid(stringWith(at, "\u00e8".getBytes(StandardCharsets.UTF_8)))).as("e-grave at %d", at).isTrue();
            assertThat(valid(stringWith(at, new byte[] {'\\', 'n'}))).as("escape at %d", at).isTrue();
            assertThat(valid(stringWith(at, new byte[] {0x1f}))).as("control at %d", at).isFalse();
            assertThat(valid(stringWith(at, new byte[] {'"'}))).as("early quote at %d", at).isFalse();
            assertThat(valid(stringWith(at, new byte[] {'\\'}))).as("lone backslash at %d", at).isFalse();
        }
    }

    /** {@code "aaa…<inner>bbb…"}: {@code inner} after {@code at} plain bytes, 20 in all around it. */
    private static byte[] stringWith(int at, byte[] inner) {
        byte[] text = new byte[2 + 20 + inner.length];
        Arrays.fill(text, (byte) 'a');
        text[0] = '"';
        System.arraycopy(inner, 0, text, 1 + at, inner.length);
        text[text.length - 1] = '"';
        return text;
    }

    @Test
    void theBytesAfterTheTextNeverChangeTheAnswer() {
        List<String> texts = List.of("1", "12", "1.5", "-", "tru", "\"ab", "\"a\\", "\"a\\u00", "[1", "{\"a\":1",
                "{\"a\"", "\"\u00e8", "true", "{}", "[\"x\"]");
        List<String> followers = List.of("", "0", "5e3", "e", "\"", "\"}", "]", "}", "ue", "0e9\"", " ", "\u0080\u0080");
        for (String text : texts) {
            boolean alone = valid(text);
            for (String after : followers) {
                assertThat(valid(text.getBytes(StandardCharsets.UTF_8), after.getBytes(StandardCharsets.UTF_8)))
                        .as("%s followed by %s", text, after)
                        .isEqualTo(alone);
            }
        }
    }

    @Test
    void rawLineBreaksBecomeSpacesAndNothingElseChanges() {
        JsonValidator validator = new JsonValidator();
        byte[] pretty = "{\n  \"a\": [1,\r\n2] ,\"b\":\"\\n\"\r}\n\u0000".getBytes(StandardCharsets.UTF_8);
        assertThat(validator.isValid(pretty, 0, pretty.length - 1)).isTrue();
        assertThat(new String(pretty, StandardCharsets.UTF_8))
                .isEqualTo("{   \"a\": [1,  2] ,\"b\":\"\\n\" } \u0000");
        byte[] compact = "{\"a\":\"\\n\"}\u0000".getBytes(StandardCharsets.UTF_8);
        byte[] before = compact.clone();
        assertThat(validator.isValid(compact, 0, compact.length - 1)).isTrue();
        assertThat(compact).isEqualTo(before);
    }

    @Test
    void itAgreesWithJacksonOnMutatedOrderPayloads() throws IOException {
        byte[] spice = "{}[],:\"\\ \n\r\t0123456789-+.eEtrufalsn/u\u00e9\u0001\u007f".getBytes(StandardCharsets.UTF_8);
        Random random = new Random(20261201);
        JsonValidator validator = new JsonValidator(); // reused, as the encoder does
        int accepted = 0;
        int refused = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] text = orderPayload(random);
            for (int m = random.nextInt(3); m > 0; m--) {
                text = mutate(text, random, spice);
            }
            byte[] buffer = Arrays.copyOf(text, text.length + 1 + random.nextInt(9));
            boolean ours = validator.isValid(buffer, 0, text.length);
            String shown = new String(text, StandardCharsets.UTF_8);
            assertThat(ours).as(shown).isEqualTo(jacksonAccepts(text));
            if (ours) {
                accepted++;
                byte[] flattened = text.clone(); // in a valid text a raw line break can only be whitespace
                for (int k = 0; k < flattened.length; k++) {
                    if (flattened[k] == '\n' || flattened[k] == '\r') {
                        flattened[k] = ' ';
                    }
                }
                assertThat(Arrays.copyOf(buffer, text.length)).as(shown).isEqualTo(flattened);
            } else {
                refused++;
            }
        }
        assertThat(accepted).as("valid texts among the mutated ones").isGreaterThan(20_000);
        assertThat(refused).as("invalid texts among the mutated ones").isGreaterThan(20_000);
    }

    /** An order-like object (the benchmark's shape), sometimes pretty-printed, with escapes and non-ASCII text. */
    private static byte[] orderPayload(Random random) {
        String gap = random.nextInt(4) == 0 ? List.of(" ", "\n  ", "\r\n\t", "").get(random.nextInt(4)) : "";
        StringBuilder json = new StringBuilder("{").append(gap).append("\"orderId\":").append(gap)
                .append(random.nextInt(1_000_000_000)).append(",\"status\":\"")
                .append(List.of("paid", "created", "caff\u00e8 \u20ac", "say \\\"hi\\\"", "\\u00e9\\n", "\uD83D\uDE00")
                        .get(random.nextInt(6)))
                .append("\",").append(gap).append("\"items\":[");
        for (int i = random.nextInt(4); i >= 0; i--) {
            json.append("{\"sku\":\"SKU-").append(random.nextInt(99_999)).append("\",\"qty\":")
                    .append(random.nextInt(12)).append(",\"price\":").append(random.nextInt(500)).append('.')
                    .append(random.nextInt(99)).append(",\"ok\":").append(List.of("true", "false", "null").get(random.nextInt(3)))
                    .append(",\"w\":").append(List.of("-0.5", "1e9", "2E-3", "0", "-12").get(random.nextInt(5)))
                    .append(i == 0 ? "}" : "},").append(gap);
        }
        return json.append("],\"note\":\"").append("leave at the door ".repeat(random.nextInt(4)))
                .append("\"").append(gap).append('}').toString().getBytes(StandardCharsets.UTF_8);
    }

    /** One random edit: a byte changed, dropped or inserted, a span repeated, or the text cut short. */
    private static byte[] mutate(byte[] text, Random random, byte[] spice) {
        if (text.length == 0) {
            return new byte[] {spice[random.nextInt(spice.length)]};
        }
        int at = random.nextInt(text.length);
        byte b = spice[random.nextInt(spice.length)];
        return switch (random.nextInt(5)) {
            case 0 -> {
                byte[] t = text.clone();
                t[at] = b;
                yield t;
            }
            case 1 -> concat(Arrays.copyOf(text, at), Arrays.copyOfRange(text, at + 1, text.length));
            case 2 -> concat(Arrays.copyOf(text, at), new byte[] {b}, Arrays.copyOfRange(text, at, text.length));
            case 3 -> {
                int end = Math.min(text.length, at + 1 + random.nextInt(12));
                yield concat(Arrays.copyOf(text, end), Arrays.copyOfRange(text, at, text.length));
            }
            default -> Arrays.copyOf(text, at);
        };
    }

    private static byte[] concat(byte[]... parts) {
        byte[] out = new byte[Arrays.stream(parts).mapToInt(p -> p.length).sum()];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }

    @Test
    void itAgreesWithJacksonOnRandomJsonLikeText() throws IOException {
        String[] pieces = {"{", "}", "[", "]", ",", ":", "\"", "\\", "\\u00e9", "\\uZZ", "\\x", "\\n", "\\/", "a", "0",
            "1", "-", ".", "e", "E", "+", " ", "\n", "\r", "\t", "true", "fals", "null", "\"k\":", "\u00e9", "\u20ac",
            "\uD83D\uDE00", "\u0001", "\u007f", "12345678", "abcdefghij", "\"abcdefghijklmnop\"", "{\"a\":[1,2.5]}"};
        Random random = new Random(20261130);
        JsonValidator validator = new JsonValidator(); // reused, as the encoder does
        int accepted = 0;
        for (int i = 0; i < 200_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int k = random.nextInt(14); k > 0; k--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            byte[] buffer = Arrays.copyOf(bytes, bytes.length + 1 + random.nextInt(9));
            boolean ours = validator.isValid(buffer, 0, bytes.length);
            assertThat(ours).as(text.toString()).isEqualTo(jacksonAccepts(bytes));
            accepted += ours ? 1 : 0;
        }
        assertThat(accepted).as("the random texts include valid ones").isGreaterThan(2_000);
    }

    private static final JsonFactory JACKSON = new JsonFactory();

    /** Jackson's strict defaults, reading every token's text so that strings and numbers are fully decoded. */
    private static boolean jacksonAccepts(byte[] text) throws IOException {
        try (JsonParser parser = JACKSON.createParser(text)) {
            JsonToken token = parser.nextToken();
            if (token == null) {
                return false;
            }
            int depth = 0;
            do {
                if (token.isStructStart()) {
                    depth++;
                } else if (token.isStructEnd()) {
                    depth--;
                } else {
                    parser.getText();
                }
            } while (depth > 0 && (token = parser.nextToken()) != null);
            return depth == 0 && parser.nextToken() == null;
        } catch (IOException refused) { // Jackson reports every refusal as one
            return false;
        }
    }
}
