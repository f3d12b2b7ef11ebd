package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FetchDecoderTest {

    private static final String TS = "\"2026-10-03T06:37:37.501942Z\"";

    private static List<FetchedPartition> decode(String body, FetchEntry... asked) throws IOException {
        return FetchDecoder.decode(body.getBytes(StandardCharsets.UTF_8), List.of(asked));
    }

    private static String answerWithPayloads(String... payloads) {
        StringBuilder records = new StringBuilder();
        for (int i = 0; i < payloads.length; i++) {
            records.append(i == 0 ? "" : ",")
                    .append("{\"offset\":").append(i)
                    .append(",\"transactionId\":\"t-").append(i)
                    .append("\",\"payload\":").append(payloads[i])
                    .append(",\"ts\":").append(TS).append('}');
        }
        return "{\"entries\":[{\"queue\":\"q\",\"partition\":\"p\",\"records\":[" + records
                + "],\"highWatermark\":" + payloads.length + ",\"logStartOffset\":0}]}";
    }

    @Test
    void everyPayloadKeepsTheExactBytesTheBrokerSent() throws IOException {
        String[] payloads = {
            "{\"b\":1,\"a\":123456789012345678901234567890,\"c\":1E+400,\"d\":-0}",
            "{\"order\":1,\"total\":42.00}",
            "{\n  \"pretty\" : [ 1, 2 ],\n  \"x\" : { }\n}",
            "\"quote \\\" slash \\/ unicode \\u00e9 é tab \\t\"",
            "42.00",
            "-0",
            "1E+400",
            "true",
            "false",
            "[1,[2,[3]],{\"k\":null}]",
            "\"\"",
        };
        List<FetchedPartition> answer = decode(answerWithPayloads(payloads), FetchEntry.of("q", "p", 0, 1024));
        List<FetchedRecord> records = answer.get(0).records();
        assertThat(records).hasSize(payloads.length);
        for (int i = 0; i < payloads.length; i++) {
            assertThat(records.get(i).payloadText()).isEqualTo(payloads[i]);
        }
    }

    @Test
    void aNullPayloadIsTheTextNullNotAnEmptyPayload() throws IOException {
        // HTTP pushes cannot carry an empty payload: a null in the answer is a pushed JSON null
        List<FetchedPartition> answer = decode(answerWithPayloads("null"), FetchEntry.of("q", "p", 0, 1024));
        assertThat(answer.get(0).records().get(0).payloadText()).isEqualTo("null");
    }

    @Test
    void recordsCarryOffsetTransactionAndStampInMicros() throws IOException {
        FetchedRecord r = decode(answerWithPayloads("{}", "{}"), FetchEntry.of("q", "p", 0, 1024)).get(0).records().get(1);
        assertThat(r.offset()).isEqualTo(1);
        assertThat(r.transactionId()).isEqualTo("t-1");
        assertThat(r.tsMicros()).isEqualTo(1_791_009_457_501_942L);
    }

    @Test
    void entryErrorsAndBoundsAreAnswersNotFailures() throws IOException {
        String body = "{\"entries\":["
                + "{\"queue\":\"q\",\"partition\":\"p\",\"records\":[],\"highWatermark\":5,\"logStartOffset\":2,\"error\":\"OFFSET_OUT_OF_RANGE\"},"
                + "{\"queue\":\"ghost\",\"partition\":\"Default\",\"records\":[],\"highWatermark\":0,\"logStartOffset\":0,\"error\":\"UNKNOWN_TOPIC_OR_PARTITION\"},"
                + "{\"queue\":\"q\",\"partition\":\"idle\",\"records\":[],\"highWatermark\":3,\"logStartOffset\":0,\"someFutureField\":{\"a\":[1]}}]}";
        List<FetchedPartition> answer = decode(body,
                FetchEntry.of("q", "p", 9, 1), FetchEntry.of("ghost", "Default", 0, 1), FetchEntry.of("q", "idle", 3, 1));
        assertThat(answer.get(0).error()).isEqualTo(EntryError.OFFSET_OUT_OF_RANGE);
        assertThat(answer.get(0).highWatermark()).isEqualTo(5);
        assertThat(answer.get(0).logStartOffset()).isEqualTo(2);
        assertThat(answer.get(1).error()).isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(answer.get(2).caughtUp(3)).isTrue();
    }

    @Test
    void anAnswerWithAnotherEntryCountIsAMismatch() {
        assertThatThrownBy(() -> decode(answerWithPayloads("1"), FetchEntry.of("q", "p", 0, 1), FetchEntry.of("q", "p2", 0, 1)))
                .isInstanceOf(EntryMismatchException.class)
                .hasMessage("asked 2 entries, got 1");
    }

    @Test
    void anAnswerForAnotherQueueOrPartitionIsAMismatch() {
        assertThatThrownBy(() -> decode(answerWithPayloads("1"), FetchEntry.of("other", "p", 0, 1)))
                .isInstanceOf(EntryMismatchException.class)
                .hasMessage("entry 0 has queue 'q' where 'other' was asked");
        assertThatThrownBy(() -> decode(answerWithPayloads("1"), FetchEntry.of("q", "p9", 0, 1)))
                .isInstanceOf(EntryMismatchException.class)
                .hasMessage("entry 0 has partition 'p' where 'p9' was asked");
    }

    @Test
    void aTruncatedAnswerIsRefused() {
        String whole = answerWithPayloads("{\"a\":1}", "{\"b\":2}");
        for (int cut = 1; cut < whole.length(); cut += 7) {
            String truncated = whole.substring(0, cut);
            assertThatThrownBy(() -> decode(truncated, FetchEntry.of("q", "p", 0, 1)))
                    .as("cut at %d", cut)
                    .isInstanceOfAny(IOException.class, WireFormatException.class);
        }
    }
}
