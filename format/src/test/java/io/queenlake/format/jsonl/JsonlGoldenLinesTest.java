package io.queenlake.format.jsonl;

import static io.queenlake.format.testutils.Records.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.window.ObjectLabels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every expected line below is written by hand from docs/LAKE-FORMAT.md, never produced by the encoder. */
class JsonlGoldenLinesTest {

    /** 2026-10-03T06:37:37.501942Z. */
    private static final long TS = 1_791_009_457_501_942L;
    private static final String TS_TEXT = "2026-10-03T06:37:37.501942Z";

    private static String line(LogRecord r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonlObjectEncoder.of(Compression.NONE).encode(List.of(r), new ObjectLabels("t", "q"), out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static LogRecord rec(String partition, String txn, byte[] payload) {
        return new LogRecord(partition, "", 7, txn, TS, payload);
    }

    private static String expected(String partitionJson, String txnJson, String payloadJson) {
        return "{\"partition\":" + partitionJson + ",\"offset\":7,\"transactionId\":" + txnJson + ",\"ts\":\"" + TS_TEXT
                + "\",\"payload\":" + payloadJson + "}\n";
    }

    @Test
    void theDocumentedLineComesOutByteForByte() throws IOException {
        LogRecord r = new LogRecord("cust-1", "", 0, "01a1", TS, utf8("{\"order\":1,\"total\":42.00}"));
        assertThat(line(r)).isEqualTo("{\"partition\":\"cust-1\",\"offset\":0,\"transactionId\":\"01a1\","
                + "\"ts\":\"2026-10-03T06:37:37.501942Z\",\"payload\":{\"order\":1,\"total\":42.00}}\n");
    }

    @Test
    void quotesAndBackslashesAreEscaped() throws IOException {
        assertThat(line(rec("a\"b\\c", "say \"hi\"", utf8("1"))))
                .isEqualTo(expected("\"a\\\"b\\\\c\"", "\"say \\\"hi\\\"\"", "1"));
    }

    @Test
    void everyC0ControlUsesItsShortFormOrLowercaseUnicodeEscape() throws IOException {
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            controls.append(c);
        }
        String escaped = "\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                + "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d"
                + "\\u001e\\u001f";
        assertThat(line(rec("p", controls.toString(), utf8("1"))))
                .isEqualTo(expected("\"p\"", "\"" + escaped + "\"", "1"));
    }

    @Test
    void slashDelAndNonAsciiAreWrittenRaw() throws IOException {
        String raw = "a/b\u007f caff\u00e8 \u2028 \u2029 \u0085 \uD83D\uDE00";
        assertThat(line(rec(raw, raw, utf8("1")))).isEqualTo(expected("\"" + raw + "\"", "\"" + raw + "\"", "1"));
    }

    @Test
    void payloadNumbersAndEscapesSurviveVerbatim() throws IOException {
        for (String payload : List.of("42.00", "123456789012345678901234567890", "1E+400", "-0", "2.5e-400",
                "{\"b\":1,\"a\":123456789012345678901234567890,\"c\":1E+400,\"d\":-0}",
                "\"\\u2028 \\/ \\ud83d\\ude00\"", "[ ]", "{ }", "true", "null", " 1 ")) {
            assertThat(line(rec("p", "", utf8(payload)))).as(payload).isEqualTo(expected("\"p\"", "\"\"", payload));
        }
    }

    @Test
    void rawLineBreaksInAPrettyPrintedPayloadBecomeSpaces() throws IOException {
        String pretty = "{\n  \"a\": 1,\r\n  \"b\": [\n    2\n  ]\n}\n";
        assertThat(line(rec("p", "", utf8(pretty))))
                .isEqualTo(expected("\"p\"", "\"\"", "{   \"a\": 1,    \"b\": [     2   ] } "));
    }

    @Test
    void rawU2028AndDelInsidePayloadStringsStayRaw() throws IOException {
        String payload = "{\"s\":\"\u2028\u007f\uD83D\uDE00\"}";
        assertThat(line(rec("p", "", utf8(payload)))).isEqualTo(expected("\"p\"", "\"\"", payload));
    }

    @Test
    void anEmptyPayloadIsNull() throws IOException {
        assertThat(line(rec("p", "", new byte[0]))).isEqualTo(expected("\"p\"", "\"\"", "null"));
    }

    @Test
    void aPayloadThatIsNotJsonIsWrittenAsAJsonStringOfItsBytes() throws IOException {
        assertThat(line(rec("p", "", utf8("{\"a\":")))).isEqualTo(expected("\"p\"", "\"\"", "\"{\\\"a\\\":\""));
        assertThat(line(rec("p", "", utf8("hello\nworld")))).isEqualTo(expected("\"p\"", "\"\"", "\"hello\\nworld\""));
        assertThat(line(rec("p", "", utf8("   ")))).isEqualTo(expected("\"p\"", "\"\"", "\"   \""));
        assertThat(line(rec("p", "", utf8("[1,]")))).isEqualTo(expected("\"p\"", "\"\"", "\"[1,]\""));
        assertThat(line(rec("p", "", utf8("01")))).isEqualTo(expected("\"p\"", "\"\"", "\"01\""));
        assertThat(line(rec("p", "", utf8("{\"a\":\"tab\tinside\"}"))))
                .isEqualTo(expected("\"p\"", "\"\"", "\"{\\\"a\\\":\\\"tab\\tinside\\\"}\""));
    }

    @Test
    void bytesThatAreNotUtf8BecomeReplacementCharacters() throws IOException {
        byte[] payload = {'"', 'a', (byte) 0xFF, '"'};
        assertThat(line(rec("p", "", payload))).isEqualTo(expected("\"p\"", "\"\"", "\"\\\"a\uFFFD\\\"\""));
        // a truncated sequence is one maximal ill-formed prefix: one U+FFFD, as from_utf8_lossy
        byte[] truncated = {'x', (byte) 0xE2, (byte) 0x82};
        assertThat(line(rec("p", "", truncated))).isEqualTo(expected("\"p\"", "\"\"", "\"x\uFFFD\""));
    }

    @Test
    void stampsAlwaysHaveSixFractionalDigitsAndZ() throws IOException {
        LogRecord epoch = new LogRecord("p", "", 0, "", 0, utf8("1"));
        LogRecord leap = new LogRecord("p", "", 1, "", 951_782_400_000_001L, utf8("1"));
        assertThat(line(epoch)).contains("\"ts\":\"1970-01-01T00:00:00.000000Z\"");
        assertThat(line(leap)).contains("\"ts\":\"2000-02-29T00:00:00.000001Z\"");
    }

    @Test
    void negativeOffsetsAreWrittenAsTheyAre() throws IOException {
        LogRecord r = new LogRecord("p", "", -3, "", TS, utf8("1"));
        assertThat(line(r)).contains("\"offset\":-3,");
    }

    @Test
    void recordsOutOfLakeOrderAreRefused() {
        List<LogRecord> wrong = List.of(rec("b", "", utf8("1")), rec("a", "", utf8("1")));
        assertThatThrownBy(() -> JsonlObjectEncoder.of(Compression.NONE)
                        .encode(wrong, new ObjectLabels("t", "q"), new ByteArrayOutputStream()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lake order");
    }
}
