package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the dev broker does to payloads: it refuses bytes serde_json refuses (overlong UTF-8,
 * CESU-8 surrogates, bytes above F4) as it refuses any body that is not JSON, and, with
 * {@code renderPayloads}, answers each payload as Queen's raft broker renders it over HTTP.
 */
class PayloadFidelityTest {

    private static DevBroker verbatim;
    private static DevBroker rendering;
    private static WireClient stored;
    private static WireClient rendered;

    @BeforeAll
    static void start() throws IOException {
        verbatim = DevBroker.start(DevBrokerOptions.builder().build());
        rendering = DevBroker.start(DevBrokerOptions.builder().renderPayloads(true).build());
        stored = new WireClient(verbatim.url());
        rendered = new WireClient(rendering.url());
    }

    @AfterAll
    static void stop() {
        verbatim.close();
        rendering.close();
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedAsAnyBodyThatIsNotJson() throws IOException {
        WireClient.Answer notJson = stored.post("/api/v1/push", "{\"items\":[{\"queue\":\"bad\",\"payload\":{]}]}");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.json().get("error").asText()).startsWith("bad body: the request body is not JSON (");
        byte[][] payloads = {
            {'"', (byte) 0xC0, (byte) 0x80, '"'}, // overlong NUL
            {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, (byte) 0xED, (byte) 0xB0, (byte) 0x80, '"'}, // CESU-8 pair
            {'"', 'a', (byte) 0xF5, (byte) 0x80, (byte) 0x80, (byte) 0x80, '"'}, // above F4
            {'{', '"', (byte) 0xFF, '"', ':', '1', '}'}, // in a key: Jackson's own decoding refuses it
        };
        for (byte[] payload : payloads) {
            WireClient.Answer refused = rendering(payload, stored);
            assertThat(refused.status()).as(refused.text()).isEqualTo(400);
            assertThat(refused.json().get("code").asText()).isEqualTo(notJson.json().get("code").asText());
            assertThat(refused.json().get("error").asText()).startsWith("bad body: the request body is not JSON (");
            if (payload[0] == '"') {
                assertThat(refused.json().get("error").asText())
                        .startsWith("bad body: the request body is not JSON (item 0's payload: byte 0x")
                        .contains("is not well-formed UTF-8");
            }
        }
        WireClient.Answer none = stored.post("/api/v1/fetch",
                "{\"entries\":[{\"queue\":\"bad\",\"partition\":\"Default\",\"offset\":0}]}");
        assertThat(none.json().get("entries").get(0).get("error").asText()).isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        // well-formed UTF-8 of every length still goes through untouched
        byte[] fine = "\"\u00e9\u20ac\ud83d\ude00\"".getBytes(StandardCharsets.UTF_8);
        assertThat(rendering(fine, stored).status()).isEqualTo(201);
    }

    private static WireClient.Answer rendering(byte[] payload, WireClient client) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write("{\"items\":[{\"queue\":\"bad\",\"payload\":".getBytes(StandardCharsets.US_ASCII));
        body.write(payload);
        body.write("}]}".getBytes(StandardCharsets.US_ASCII));
        return client.post("/api/v1/push", body.toByteArray());
    }

    /** Pushed text, then what the raft broker answers for it (serde_json defaults). */
    private static final String[][] RENDERINGS = {
        {"{ \"b\" : 1,\n  \"a\" : [ 1 , 2.50 ] }", "{\"a\":[1,2.5],\"b\":1}"},
        {"{\"order\":1,\"total\":42.00}", "{\"order\":1,\"total\":42.0}"},
        {"123456789012345678901234567890", "1.2345678901234568e29"},
        {"18446744073709551615", "18446744073709551615"},
        {"18446744073709551616", "1.8446744073709552e19"},
        {"-9223372036854775808", "-9223372036854775808"},
        {"-9223372036854775809", "-9.223372036854776e18"},
        {"-0", "-0.0"},
        {"0", "0"},
        {"1e2", "100.0"},
        {"1e20", "1e20"},
        {"1.5e-7", "1.5e-7"},
        {"0.0001", "0.0001"},
        {"2.5e-400", "0.0"},
        {"1E+400", "\"1E+400\""},
        {"{\"c\":1E+400}", "\"{\\\"c\\\":1E+400}\""},
        {"\"\\u00e9\\/\\u0001\\u007f\"", "\"\u00e9/\\u0001\u007f\""},
        {"\"\\ud800\"", "\"\\\"\\\\ud800\\\"\""},
        {"{\"a\":1,\"a\":2}", "{\"a\":2}"},
        {"{\"\u00e9\":1,\"z\":2,\"\ud83d\ude00\":3,\"\uffff\":4}", "{\"z\":2,\"\u00e9\":1,\"\uffff\":4,\"\ud83d\ude00\":3}"},
        {"null", "null"},
        {"true", "true"},
        {"[ 1,\r\n  2 ]", "[1,2]"},
        {"[" + "[".repeat(126) + "]".repeat(126) + "]", "[" + "[".repeat(126) + "]".repeat(126) + "]"},
        {"[" + "[".repeat(127) + "]".repeat(127) + "]",
            "\"[" + "[".repeat(127) + "]".repeat(127) + "]\""},
    };

    @Test
    void renderedPayloadsAreWhatTheRaftBrokerAnswers() {
        for (int i = 0; i < RENDERINGS.length; i++) {
            rendered.push("render", "p", "r-" + i, RENDERINGS[i][0]);
            stored.push("render", "p", "r-" + i, RENDERINGS[i][0]);
        }
        WireClient.Answer answer = rendered.post("/api/v1/fetch",
                "{\"entries\":[{\"queue\":\"render\",\"partition\":\"p\",\"offset\":0}]}");
        WireClient.Answer verbatimAnswer = stored.post("/api/v1/fetch",
                "{\"entries\":[{\"queue\":\"render\",\"partition\":\"p\",\"offset\":0}]}");
        for (int i = 0; i < RENDERINGS.length; i++) {
            assertThat(payloadText(answer.text(), i)).as(RENDERINGS[i][0]).isEqualTo(RENDERINGS[i][1]);
            assertThat(payloadText(verbatimAnswer.text(), i)).as(RENDERINGS[i][0]).isEqualTo(RENDERINGS[i][0]);
        }
    }

    @Test
    void aRenderingBrokerStillWeighsAndKeepsTheStoredText() {
        StoredRecord r = StoredRecord.of(0, 1, "t", "{ \"a\" : 1.50 }".getBytes(StandardCharsets.UTF_8), true);
        assertThat(new String(r.payload(), StandardCharsets.UTF_8)).isEqualTo("{ \"a\" : 1.50 }");
        assertThat(r.weight()).isEqualTo(14);
        assertThat(r.json().getValue()).contains("\"payload\":{\"a\":1.5},");
    }

    /** The raw text of record {@code i}'s payload in a one-entry answer, sliced as the lake's client slices it. */
    private static String payloadText(String answer, int i) {
        int at = answer.indexOf("{\"offset\":" + i + ",");
        int start = answer.indexOf("\"payload\":", at) + "\"payload\":".length();
        int end = answer.indexOf(",\"ts\":\"", start);
        return answer.substring(start, end);
    }
}
