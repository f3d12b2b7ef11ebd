package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code dev-broker --kv-write-rate N --kv-latency-ms N}: Queen's per-tenant KV write budget (a
 * write call over it is answered 429 with Retry-After and changes nothing, reads are free) and a
 * KV round trip, against the real HTTP route and the job's own client.
 */
class KvWriteBudgetTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String OTHER_TENANT = "00000000-0000-0000-0000-000000000002";

    @Test
    void theSixthWriteCallWithinOneSecondIsRefusedWithRetryAfterReadsAreNotAndTheBudgetRefills() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().kvWriteRate(5).build())) {
            long started = System.nanoTime();
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                statuses.add(post(broker, put("k" + i, i), null).statusCode());
            }
            HttpResponse<String> sixth = post(broker, put("k5", 5), null);
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            assertThat(elapsed).as("six write calls within a second").isLessThan(Duration.ofSeconds(1));

            assertThat(statuses).containsOnly(200);
            assertThat(sixth.statusCode()).isEqualTo(429);
            assertThat(sixth.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(sixth.body()).contains("\"code\":\"rate_limited\"").contains("\"reason\":\"kv_rate_limited\"");
            // Refused means unchanged.
            assertThat(post(broker, get("k5"), null).body()).contains("\"found\":false");
            // Reads are never refused, however many.
            for (int i = 0; i < 20; i++) {
                assertThat(post(broker, get("k0"), null).statusCode()).isEqualTo(200);
            }
            // Another tenant has a budget of its own.
            assertThat(post(broker, put("k0", 0), OTHER_TENANT).statusCode()).isEqualTo(200);
            assertThat(broker.kvWritesRefused()).isEqualTo(1);

            Thread.sleep(1_000);
            assertThat(post(broker, put("k5", 5), null).statusCode()).as("a token is free again after Retry-After").isEqualTo(200);
            assertThat(post(broker, get("k5"), null).body()).contains("\"found\":true");
        }
    }

    @Test
    void theJobsClientWaitsOutA429AfterRetryAfterAndItsWriteSucceeds() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().kvWriteRate(5).build())) {
            QueenClient client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
            for (int i = 0; i < 5; i++) {
                client.kv(List.of(KvOp.upsert("queen-s3", "spend-" + i, RawJson.of("1"), KvExpiry.forever())));
            }
            long started = System.nanoTime();
            KvAnswer answer = client.kv(List.of(KvOp.upsert("queen-s3", "sixth", RawJson.of("6"), KvExpiry.forever())));
            Duration took = Duration.ofNanos(System.nanoTime() - started);

            assertThat(answer).isInstanceOf(KvAnswer.Results.class);
            assertThat(((KvAnswer.Results) answer).get(0)).isInstanceOfSatisfying(KvResult.Written.class,
                    w -> assertThat(w.applied()).isTrue());
            assertThat(broker.kvWritesRefused()).as("refused once, then written").isEqualTo(1);
            assertThat(took).as("the retry waited Retry-After (1 s)").isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            System.out.println("KvWriteBudgetTest: the 6th write call was refused 429 and written after " + took.toMillis() + " ms");
        }
    }

    @Test
    void everyKvCallTakesAtLeastTheLatencyAndWithoutOptionsNothingIsLimited() throws Exception {
        try (DevBroker slow = DevBroker.start(DevBrokerOptions.builder().kvLatencyMs(40).build());
                DevBroker plain = DevBroker.start(DevBrokerOptions.builder().build())) {
            post(slow, get("warm-up"), null);
            AtomicLong took = new AtomicLong(System.nanoTime());
            assertThat(post(slow, get("a"), null).statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - took.get())).isGreaterThanOrEqualTo(Duration.ofMillis(40));

            for (int i = 0; i < 30; i++) {
                assertThat(post(plain, put("p" + i, i), null).statusCode()).isEqualTo(200);
            }
            assertThat(plain.kvWritesRefused()).isZero();
        }
    }

    private static String put(String key, int value) {
        return "{\"operations\":[{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"" + key + "\",\"value\":" + value
                + ",\"forever\":true}]}";
    }

    private static String get(String key) {
        return "{\"operations\":[{\"ns\":\"queen-s3\",\"op\":\"get\",\"key\":\"" + key + "\"}]}";
    }

    private static HttpResponse<String> post(DevBroker broker, String body, String tenant) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(broker.url() + "/api/v1/kv"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (tenant != null) {
            b.header("x-queen-tenant", tenant);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
