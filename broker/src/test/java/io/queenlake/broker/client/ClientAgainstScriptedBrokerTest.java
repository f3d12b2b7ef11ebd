package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.queenlake.broker.client.ScriptedBroker.Reply;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClientAgainstScriptedBrokerTest {

    private static final String ONE_RECORD = "{\"entries\":[{\"queue\":\"orders\",\"partition\":\"cust-1\","
            + "\"records\":[{\"offset\":0,\"transactionId\":\"ord-1\",\"payload\":{\"order\":1,\"total\":42.00},"
            + "\"ts\":\"2026-10-03T06:37:37.501942Z\"}],\"highWatermark\":1,\"logStartOffset\":0}]}";
    private static final FetchRequest READ_CUST_1 =
            FetchRequest.immediate(List.of(FetchEntry.of("orders", "cust-1", 0, 1_048_576)));
    /** Short backoffs so that retried failures cost milliseconds; Retry-After is asserted, never slept. */
    private static final RetryPolicy POLICY = new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2));

    private ScriptedBroker broker;
    private QueenClient client;
    private final List<Duration> slept = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        broker = new ScriptedBroker();
        client = broker.client();
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    private <T> T withRetries(java.util.function.Supplier<T> call) {
        return POLICY.call(call, slept::add);
    }

    @Test
    void aFetchSendsTheWireBodyWithTokenAndJsonHeaders() {
        broker.then(Reply.json(200, ONE_RECORD));
        List<FetchedPartition> answer = client.fetch(READ_CUST_1);

        assertThat(answer.get(0).records().get(0).payloadText()).isEqualTo("{\"order\":1,\"total\":42.00}");
        ScriptedBroker.Call call = broker.calls().get(0);
        assertThat(call.method()).isEqualTo("POST");
        assertThat(call.path()).isEqualTo("/api/v1/fetch");
        assertThat(call.header("Authorization")).isEqualTo("Bearer sk_test");
        assertThat(call.header("Content-Type")).isEqualTo("application/json");
        assertThat(call.header("x-queen-tenant")).isNull();
        assertThat(call.body()).isEqualTo("{\"entries\":[{\"queue\":\"orders\",\"partition\":\"cust-1\",\"offset\":0,"
                + "\"maxBytes\":1048576}],\"maxWaitMs\":0,\"minBytes\":1}");
    }

    @Test
    void callsReuseOneKeepAliveConnection() {
        broker.then(Reply.json(200, ONE_RECORD)).then(Reply.json(200, ONE_RECORD));
        client.fetch(READ_CUST_1);
        client.fetch(READ_CUST_1);
        assertThat(broker.calls().get(1).clientPort()).isEqualTo(broker.calls().get(0).clientPort());
    }

    @Test
    void aTenantIsSentAsTheTenantHeader() {
        QueenClient tenanted = HttpQueenClient.builder().baseUrl(broker.url() + "/")
                .tenant("7A1B2C3D-0000-4000-8000-00000000000A").build();
        broker.then(Reply.json(200, "{\"queues\":[{\"name\":\"orders\",\"depth\":3},{\"name\":\"\"}]}"));
        assertThat(tenanted.queues()).containsExactly("orders");
        assertThat(broker.calls().get(0).header("x-queen-tenant")).isEqualTo("7a1b2c3d-0000-4000-8000-00000000000a");
        assertThat(broker.calls().get(0).header("Authorization")).isNull();
        assertThat(broker.calls().get(0).path()).isEqualTo("/api/v1/resources/queues");
    }

    @Test
    void tooManyRequestsWaitsExactlyTheRetryAfterSeconds() {
        broker.then(Reply.json(429, "{\"error\":\"overloaded\",\"code\":\"overloaded\"}", "Retry-After", "7"));

        QueenException refused = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
        assertThat(refused.retriable()).isTrue();
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.retryAfterSeconds()).hasValue(7);
        assertThat(refused.brokerError()).hasValue("overloaded");
        assertThat(POLICY.delayBefore(2, refused)).hasValue(Duration.ofSeconds(7));
        assertThat(refused.getMessage()).isEqualTo("the broker at " + broker.url()
                + " is rate limiting POST /api/v1/fetch (429 overloaded): retry after 7 s, or lower the call rate");

        broker.then(Reply.json(429, "{\"error\":\"overloaded\"}", "Retry-After", "7")).then(Reply.json(200, ONE_RECORD));
        List<FetchedPartition> answer = withRetries(() -> client.fetch(READ_CUST_1));
        assertThat(answer.get(0).records()).hasSize(1);
        assertThat(slept).containsExactly(Duration.ofSeconds(7));
    }

    @Test
    void anHttpDateRetryAfterIsIgnoredForTheBackoff() {
        broker.then(Reply.json(429, "{\"error\":\"overloaded\"}", "Retry-After", "Wed, 21 Oct 2026 07:28:00 GMT"));
        QueenException refused = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
        assertThat(refused.retryAfterSeconds()).isEmpty();
        assertThat(POLICY.delayBefore(2, refused)).hasValue(Duration.ofMillis(100));
    }

    @Test
    void noLeaderIsRetriedAfterItsRetryAfter() {
        broker.then(Reply.json(503, "{\"error\":\"no leader\",\"code\":\"no_leader\"}", "Retry-After", "1"))
                .then(Reply.json(503, "{\"error\":\"busy\",\"code\":\"retry\"}"))
                .then(Reply.json(200, ONE_RECORD));
        List<FetchedPartition> answer = withRetries(() -> client.fetch(READ_CUST_1));
        assertThat(answer.get(0).records()).hasSize(1);
        assertThat(slept).containsExactly(Duration.ofSeconds(1), Duration.ofMillis(200));
        assertThat(broker.calls()).hasSize(3);
    }

    @Test
    void aForbiddenTokenIsTerminalAndSaysWhichRoleIsMissing() {
        broker.always(call -> Reply.json(403, "{\"error\":\"Insufficient permissions\"}"));
        QueenException refused = catchThrowableOfType(
                () -> withRetries(() -> client.kv(List.of(KvOp.get("queen-s3", "k")))), QueenException.class);
        assertThat(refused.retriable()).isFalse();
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.getMessage()).isEqualTo("the broker at " + broker.url() + " denied POST /api/v1/kv to this token"
                + " (403 Insufficient permissions): give QUEEN_TOKEN the role the route needs (read-only for fetch"
                + " and discovery, read-write for KV, write-only for push)");
        assertThat(broker.calls()).hasSize(1);
        assertThat(slept).isEmpty();
    }

    @Test
    void aRefusedTokenNamesTheSettingToCheck() {
        broker.then(Reply.json(401, "{\"error\":\"Invalid token signature\"}"));
        QueenException refused = catchThrowableOfType(() -> client.health(), QueenException.class);
        assertThat(refused.retriable()).isFalse();
        assertThat(refused.getMessage()).isEqualTo("the broker at " + broker.url()
                + " refused the token on GET /health (401 Invalid token signature): check QUEEN_TOKEN");
    }

    @Test
    void aBadRequestIsTerminalAndKeepsTheBrokersWords() {
        broker.always(call -> Reply.json(400, "{\"error\":\"offset must be non-negative\"}"));
        QueenException refused = catchThrowableOfType(() -> withRetries(() -> client.fetch(READ_CUST_1)), QueenException.class);
        assertThat(refused.retriable()).isFalse();
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.brokerError()).hasValue("offset must be non-negative");
        assertThat(broker.calls()).hasSize(1);
    }

    @Test
    void terminalStatusesAreNeverRetriedAndRetriableOnesAre() {
        for (int status : new int[] {400, 401, 403, 404, 409, 413, 418}) {
            broker.then(Reply.json(status, "{\"error\":\"x\"}"));
            QueenException e = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
            assertThat(e.retriable()).as("status %d", status).isFalse();
            assertThat(e.refusesToken()).as("status %d refuses the token", status).isEqualTo(status == 401 || status == 403);
        }
        for (int status : new int[] {408, 429, 500, 502, 503, 504, 507}) {
            broker.then(Reply.json(status, "{\"error\":\"x\"}"));
            QueenException e = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
            assertThat(e.retriable()).as("status %d", status).isTrue();
            assertThat(e.refusesToken()).as("status %d", status).isFalse();
        }
    }

    @Test
    void aPlainTextRefusalKeepsItsTextAsTheBrokersError() {
        broker.then(new Reply(413, java.util.Map.of("Content-Type", "text/plain"),
                "Payload Too Large".getBytes(java.nio.charset.StandardCharsets.UTF_8), Reply.Mode.WHOLE));
        QueenException refused = catchThrowableOfType(() -> client.push(List.of(PushItem.of("q", "p", "t", "1"))),
                QueenException.class);
        assertThat(refused.retriable()).isFalse();
        assertThat(refused.brokerError()).hasValue("Payload Too Large");
        assertThat(refused.getMessage()).contains("(413 Payload Too Large): send fewer entries or smaller values");
    }

    @Test
    void aBodyCutShortIsRetried() {
        broker.then(Reply.cutShort(ONE_RECORD)).then(Reply.json(200, ONE_RECORD));
        assertThat(withRetries(() -> client.fetch(READ_CUST_1)).get(0).records()).hasSize(1);
        assertThat(broker.calls()).hasSize(2);
    }

    @Test
    void aTruncatedJsonAnswerIsAnUndecodableBodyAndIsRetried() {
        broker.then(Reply.json(200, ONE_RECORD.substring(0, ONE_RECORD.length() - 20))).then(Reply.json(200, ONE_RECORD));
        QueenException e = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
        assertThat(e.kind()).isEqualTo(QueenException.Kind.BODY);
        assertThat(e.retriable()).isTrue();
        assertThat(e.getMessage()).startsWith("the broker at " + broker.url()
                + " answered POST /api/v1/fetch with a body that cannot be decoded (");

        broker.then(Reply.json(200, "<html>proxy error</html>")).then(Reply.json(200, ONE_RECORD));
        assertThat(withRetries(() -> client.fetch(READ_CUST_1)).get(0).records()).hasSize(1);
    }

    @Test
    void anAnswerWhoseEntriesDoNotMatchTheRequestIsARetriableMismatch() {
        String twoEntries = "{\"entries\":[" + entry("orders", "cust-1") + "," + entry("orders", "cust-2") + "]}";
        String otherQueue = "{\"entries\":[" + entry("clicks", "cust-1") + "]}";
        String otherPartition = "{\"entries\":[" + entry("orders", "cust-9") + "]}";
        for (String body : List.of(twoEntries, otherQueue, otherPartition)) {
            broker.then(Reply.json(200, body));
            QueenException e = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
            assertThat(e.kind()).isEqualTo(QueenException.Kind.MISMATCH);
            assertThat(e.retriable()).isTrue();
        }
        broker.then(Reply.json(200, otherPartition));
        QueenException e = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
        assertThat(e.getMessage()).contains("entry 0 has partition 'cust-9' where 'cust-1' was asked");
    }

    @Test
    void aConnectionDroppedWithoutAnswerIsARetriableTransportFailure() {
        broker.then(Reply.hangUp()).then(Reply.json(200, ONE_RECORD));
        QueenException e = catchThrowableOfType(() -> client.fetch(READ_CUST_1), QueenException.class);
        assertThat(e.kind()).isEqualTo(QueenException.Kind.TRANSPORT);
        assertThat(e.retriable()).isTrue();
        assertThat(e.status()).isZero();
        assertThat(withRetries(() -> client.fetch(READ_CUST_1)).get(0).records()).hasSize(1);
    }

    @Test
    void aBrokerNobodyListensOnIsATransportFailureNamingTheUrl() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            port = probe.getLocalPort();
        }
        QueenClient nowhere = HttpQueenClient.builder().baseUrl("http://127.0.0.1:" + port).build();
        QueenException e = catchThrowableOfType(() -> nowhere.partitionsChanged(List.of()), QueenException.class);
        assertThat(e.kind()).isEqualTo(QueenException.Kind.TRANSPORT);
        assertThat(e.retriable()).isTrue();
        assertThat(e.getMessage()).isEqualTo("could not complete POST /api/v1/partitions/changed on the broker at"
                + " http://127.0.0.1:" + port + " (connection refused): check QUEEN_URL and that the broker is up;"
                + " the call is retriable");
    }

    @Test
    void theAsyncFetchFailsWithTheSameClassifiedException() {
        broker.then(Reply.json(503, "{\"error\":\"no leader\",\"code\":\"no_leader\"}", "Retry-After", "1"));
        Throwable failure = catchThrowableOfType(() -> client.fetchAsync(READ_CUST_1).join(),
                java.util.concurrent.CompletionException.class).getCause();
        assertThat(failure).isInstanceOf(QueenException.class);
        QueenException e = (QueenException) failure;
        assertThat(e.brokerCode()).hasValue("no_leader");
        assertThat(e.retryAfterSeconds()).hasValue(1);
    }

    @Test
    void aLostRequiredPreconditionIsAVerdictNotAnError() {
        broker.then(Reply.json(200, "{\"ok\":false,\"reason\":\"kv_precondition\",\"failedIndex\":1,"
                + "\"kvReason\":\"version\",\"version\":14,\"value\":{\"k\":7, \"big\":123456789012345678901234567890}}"));
        KvAnswer answer = client.kv(List.of(
                KvOp.upsert("queen-s3", "a", RawJson.of("1"), KvExpiry.forever()),
                new KvOp.Put("queen-s3", "b", RawJson.of("2"), KvExpiry.forever(), KvExpect.version(13), true)));
        assertThat(answer).isEqualTo(new KvAnswer.PreconditionFailed(1, java.util.Optional.of(KvReason.VERSION),
                java.util.Optional.of(14L), java.util.Optional.of(RawJson.of("{\"k\":7, \"big\":123456789012345678901234567890}"))));
        assertThat(broker.calls().get(0).body()).isEqualTo("{\"operations\":["
                + "{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"a\",\"value\":1,\"forever\":true},"
                + "{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"b\",\"value\":2,\"forever\":true,\"expect\":13,\"required\":true}]}");
    }

    @Test
    void kvResultsAreShapedByTheirOpAndReadBothTimestampForms() {
        broker.then(Reply.json(200, "{\"results\":["
                + "{\"index\":0,\"op\":\"get\",\"found\":true,\"key\":\"a\",\"value\":{\"x\":1.50},\"version\":41,"
                + "\"expiresAt\":\"2026-10-03T06:37:37.501942+00:00\",\"updatedAt\":\"2026-10-03T06:37:37.501942Z\"},"
                + "{\"index\":1,\"op\":\"putIfAbsent\",\"applied\":false,\"key\":\"b\",\"value\":\"w\",\"version\":9,\"reason\":\"exists\"},"
                + "{\"index\":2,\"op\":\"delete\",\"applied\":true,\"version\":0}]}"));
        KvAnswer answer = client.kv(List.of(KvOp.get("ns", "a"), KvOp.putIfAbsent("ns", "b", RawJson.of("1"), KvExpiry.seconds(30)),
                KvOp.delete("ns", "c")));
        KvAnswer.Results results = (KvAnswer.Results) answer;
        KvRow row = ((KvResult.Got) results.get(0)).row().orElseThrow();
        assertThat(row.value()).isEqualTo(RawJson.of("{\"x\":1.50}"));
        assertThat(row.version()).isEqualTo(41);
        assertThat(row.expiresAtMicros()).hasValue(1_791_009_457_501_942L);
        assertThat(row.updatedAtMicros()).hasValue(1_791_009_457_501_942L);
        assertThat(results.get(1)).isEqualTo(new KvResult.Written(false, "b", java.util.Optional.of(RawJson.of("\"w\"")), 9,
                java.util.Optional.of(KvReason.EXISTS)));
        assertThat(results.get(2)).isEqualTo(new KvResult.Deleted(true, 0, java.util.Optional.empty()));
    }

    @Test
    void anEmptyKvBatchMakesNoCall() {
        assertThat(client.kv(List.of())).isEqualTo(new KvAnswer.Results(List.of()));
        assertThat(broker.calls()).isEmpty();
    }

    private static String entry(String queue, String partition) {
        return "{\"queue\":\"" + queue + "\",\"partition\":\"" + partition + "\",\"records\":[],\"highWatermark\":0,\"logStartOffset\":0}";
    }
}
