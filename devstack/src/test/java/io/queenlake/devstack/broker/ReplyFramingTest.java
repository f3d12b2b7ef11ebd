package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An answer that fits the serving thread's buffer goes out with its length; a larger one streams chunked. */
class ReplyFramingTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static DevBroker broker;
    private static WireClient wire;

    @BeforeAll
    static void start() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().clock(new ManualClock()).build());
        wire = new WireClient(broker.url());
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void aSmallAnswerCarriesItsLength() throws Exception {
        HttpResponse<byte[]> health = HTTP.send(HttpRequest.newBuilder(broker.url().resolve("/health")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(health.headers().firstValueAsLong("content-length")).hasValue(health.body().length);
        assertThat(health.headers().firstValue("transfer-encoding")).isEmpty();
    }

    @Test
    void aFetchAnswerLargerThanTheBufferStreamsChunkedAndWhole() throws Exception {
        String payload = "\"" + "\u00e9".repeat(100_000) + "\""; // 200 KB each: three outgrow the 256 KiB buffer
        for (int i = 0; i < 3; i++) {
            wire.push("big", "p", "t-" + i, payload);
        }
        HttpResponse<byte[]> fetch = HTTP.send(HttpRequest.newBuilder(broker.url().resolve("/api/v1/fetch"))
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"entries\":[{\"queue\":\"big\",\"partition\":\"p\",\"offset\":0,\"maxBytes\":8388608}]}"))
                .build(), HttpResponse.BodyHandlers.ofByteArray());

        assertThat(fetch.headers().firstValue("transfer-encoding")).hasValue("chunked");
        assertThat(fetch.headers().firstValue("content-length")).isEmpty();
        JsonNode records = WireClient.MAPPER.readTree(fetch.body()).get("entries").get(0).get("records");
        assertThat(records).hasSize(3);
        for (JsonNode r : records) {
            assertThat(r.get("payload").asText()).isEqualTo("\u00e9".repeat(100_000));
        }
        assertThat(new String(fetch.body(), StandardCharsets.UTF_8)).contains(",\"payload\":" + payload + ",\"ts\":");
    }
}
