package io.queenlake.format.jsonl;

import static io.queenlake.format.testutils.Records.utf8;
import static org.assertj.core.api.Assertions.assertThat;

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
 * A record whose payload its maker already parsed ({@link LogRecord#payloadParsed}, as QueenSource's
 * are) skips the encoder's own JSON check. The lake's bytes must not depend on that: whoever parsed
 * the payload, the line is the one the encoder writes after checking it itself.
 */
class ParsedPayloadLinesTest {

    private static final long TS = 1_791_009_457_501_942L;

    private static byte[] encode(List<LogRecord> records) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonlObjectEncoder.of(Compression.NONE).encode(records, new ObjectLabels("t", "q"), out);
        return out.toByteArray();
    }

    private static LogRecord rec(long offset, byte[] payload, boolean parsed) {
        return new LogRecord("p", "", offset, "", TS, payload, parsed);
    }

    private static String line(byte[] payload) throws IOException {
        return new String(encode(List.of(rec(7, payload, true))), StandardCharsets.UTF_8);
    }

    private static String expected(String payloadJson) {
        return "{\"partition\":\"p\",\"offset\":7,\"transactionId\":\"\",\"ts\":\"2026-10-03T06:37:37.501942Z\",\"payload\":"
                + payloadJson + "}\n";
    }

    @Test
    void everyPayloadThatJacksonAcceptsGivesTheSameLinesParsedOrNot() throws IOException {
        byte[] spice = "{}[],:\"\\ \n\r\t0123456789-+.eEtrufalsn/u\u00e9\u0001\u007f".getBytes(StandardCharsets.UTF_8);
        Random random = new Random(20261202);
        List<LogRecord> parsed = new ArrayList<>();
        List<LogRecord> unparsed = new ArrayList<>();
        int withLineBreaks = 0;
        int nonAscii = 0;
        for (int i = 0; parsed.size() < 30_000; i++) {
            byte[] text = MutatedPayloads.orderPayload(random);
            for (int m = random.nextInt(3); m > 0; m--) {
                text = MutatedPayloads.mutate(text, random, spice);
            }
            if (!MutatedPayloads.jacksonAccepts(text)) {
                continue;
            }
            String shown = new String(text, StandardCharsets.UTF_8);
            withLineBreaks += shown.contains("\n") || shown.contains("\r") ? 1 : 0;
            nonAscii += shown.chars().anyMatch(c -> c >= 0x80) ? 1 : 0;
            parsed.add(rec(i, text, true));
            unparsed.add(rec(i, text.clone(), false));
        }
        byte[] fast = encode(parsed);
        byte[] checked = encode(unparsed);
        assertThat(Arrays.equals(fast, checked)).as(() -> firstDifferentLine(fast, checked)).isTrue();
        assertThat(withLineBreaks).as("payloads with raw line breaks").isGreaterThan(3_000);
        assertThat(nonAscii).as("payloads with non-ASCII text").isGreaterThan(3_000);
    }

    private static String firstDifferentLine(byte[] fast, byte[] checked) {
        String[] a = new String(fast, StandardCharsets.UTF_8).split("\n");
        String[] b = new String(checked, StandardCharsets.UTF_8).split("\n");
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (!a[i].equals(b[i])) {
                return "line " + i + " parsed:\n" + a[i] + "\nchecked:\n" + b[i];
            }
        }
        return a.length + " lines parsed, " + b.length + " checked";
    }

    @Test
    void aRawLineBreakAtAnyPlaceOfAnEightByteWordBecomesASpace() throws IOException {
        for (int gap = 0; gap < 17; gap++) {
            String pad = " ".repeat(gap);
            assertThat(line(utf8("[" + pad + "\r\n1,\t\"a\"\n]")))
                    .as("gap %d", gap)
                    .isEqualTo(expected("[" + pad + "  1,\t\"a\" ]"));
        }
    }

    @Test
    void theParsedPayloadItselfIsNeverChanged() throws IOException {
        byte[] pretty = utf8("{\n  \"a\": 1\r\n}");
        byte[] before = pretty.clone();
        assertThat(line(pretty)).isEqualTo(expected("{   \"a\": 1  }"));
        assertThat(pretty).isEqualTo(before);
    }

    @Test
    void nonAsciiTextIsStillCheckedSoALaxParserCannotChangeTheLake() throws IOException {
        assertThat(line(utf8("{\"s\":\"caff\u00e8 \u20ac \uD83D\uDE00 \u2028\"}")))
                .isEqualTo(expected("{\"s\":\"caff\u00e8 \u20ac \uD83D\uDE00 \u2028\"}"));
        // An overlong "/" and a UTF-8-encoded surrogate: some parsers let them through, the lake does not.
        for (byte[] lax : List.of(
                new byte[] {'"', 'a', (byte) 0xC0, (byte) 0xAF, '"'},
                new byte[] {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'})) {
            byte[] checked = encode(List.of(rec(7, lax, false)));
            assertThat(encode(List.of(rec(7, lax, true)))).isEqualTo(checked);
            assertThat(new String(checked, StandardCharsets.UTF_8)).contains("\"payload\":\"\\\"");
        }
    }

    @Test
    void aParsedAsciiPayloadIsTrustedNotCheckedAgain() throws IOException {
        // Garbage in, garbage out: the flag is a promise its maker keeps (QueenSource's fetch decoder does).
        assertThat(line(utf8("[1,\n]"))).isEqualTo(expected("[1, ]"));
        assertThat(new String(encode(List.of(rec(7, utf8("[1,\n]"), false))), StandardCharsets.UTF_8))
                .isEqualTo(expected("\"[1,\\n]\""));
    }

    @Test
    void anEmptyParsedPayloadIsNull() throws IOException {
        assertThat(line(new byte[0])).isEqualTo(expected("null"));
    }
}
