package io.queenlake.format.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

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
            byte[] text = MutatedPayloads.orderPayload(random);
            for (int m = random.nextInt(3); m > 0; m--) {
                text = MutatedPayloads.mutate(text, random, spice);
            }
            byte[] buffer = Arrays.copyOf(text, text.length + 1 + random.nextInt(9));
            boolean ours = validator.isValid(buffer, 0, text.length);
            String shown = new String(text, StandardCharsets.UTF_8);
            assertThat(ours).as(shown).isEqualTo(MutatedPayloads.jacksonAccepts(text));
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
            assertThat(ours).as(text.toString()).isEqualTo(MutatedPayloads.jacksonAccepts(bytes));
            accepted += ours ? 1 : 0;
        }
        assertThat(accepted).as("the random texts include valid ones").isGreaterThan(2_000);
    }
}
