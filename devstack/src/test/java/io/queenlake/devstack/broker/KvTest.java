package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The KV store over HTTP: preconditions, roll-back, versions, expiry, batch reads and limits. */
class KvTest {

    private static final ManualClock CLOCK = new ManualClock();
    private static DevBroker broker;
    private static WireClient wire;

    @BeforeAll
    static void start() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().clock(CLOCK).build());
        wire = new WireClient(broker.url());
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void aPutIsReadBackWithItsVersionAndRawValue() {
        JsonNode put = wire.kv("[{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"a\",\"value\":{\"z\":1,\"a\":1E+400},\"forever\":true}]")
                .get("results").get(0);
        JsonNode got = wire.kv("[{\"ns\":\"queen-s3\",\"op\":\"get\",\"key\":\"a\"}]").get("results").get(0);
        String raw = wire.post("/api/v1/kv", "{\"operations\":[{\"ns\":\"queen-s3\",\"op\":\"get\",\"key\":\"a\"}]}").text();

        assertThat(put.get("applied").asBoolean()).isTrue();
        assertThat(put.get("op").asText()).isEqualTo("put");
        assertThat(got.get("found").asBoolean()).isTrue();
        assertThat(got.get("version").asLong()).isEqualTo(put.get("version").asLong());
        assertThat(got.get("expiresAt").isNull()).isTrue();
        assertThat(got.get("updatedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\+00:00");
        assertThat(raw).contains("\"value\":{\"z\":1,\"a\":1E+400}");
    }

    @Test
    void expectZeroRefusesAnExistingKeyAndAnswersTheWinner() {
        long v1 = put("ns-a", "k", "\"first\"", "");
        JsonNode lost = wire.kv("[{\"ns\":\"ns-a\",\"op\":\"putIfAbsent\",\"key\":\"k\",\"value\":\"second\",\"forever\":true}]")
                .get("results").get(0);

        assertThat(lost.get("applied").asBoolean()).isFalse();
        assertThat(lost.get("op").asText()).isEqualTo("putIfAbsent");
        assertThat(lost.get("reason").asText()).isEqualTo("exists");
        assertThat(lost.get("value").asText()).isEqualTo("first");
        assertThat(lost.get("version").asLong()).isEqualTo(v1);
    }

    @Test
    void expectNUpdatesOnlyOverVersionNAndNeverCreates() {
        long v1 = put("ns-b", "k", "1", "");
        JsonNode stale = wire.kv("[{\"ns\":\"ns-b\",\"op\":\"put\",\"key\":\"k\",\"value\":2,\"forever\":true,\"expect\":"
                + (v1 + 1000) + "}]").get("results").get(0);
        long v2 = put("ns-b", "k", "3", ",\"expect\":" + v1);
        JsonNode absent = wire.kv("[{\"ns\":\"ns-b\",\"op\":\"put\",\"key\":\"nope\",\"value\":2,\"forever\":true,\"expect\":"
                + v2 + "}]").get("results").get(0);

        assertThat(stale.get("reason").asText()).isEqualTo("version");
        assertThat(stale.get("version").asLong()).isEqualTo(v1);
        assertThat(v2).isNotEqualTo(v1);
        assertThat(absent.get("reason").asText()).isEqualTo("absent");
        assertThat(wire.kv("[{\"ns\":\"ns-b\",\"op\":\"get\",\"key\":\"nope\"}]").get("results").get(0).get("found").asBoolean())
                .isFalse();
    }

    @Test
    void aLostRequiredPreconditionRollsBackTheWholeBatch() {
        long lease = put("ns-c", "lease", "{\"instance\":\"other\"}", "");
        WireClient.Answer a = wire.post("/api/v1/kv", "{\"operations\":["
                + "{\"ns\":\"ns-c\",\"op\":\"put\",\"key\":\"intent\",\"value\":{\"k\":1},\"forever\":true},"
                + "{\"ns\":\"ns-c\",\"op\":\"put\",\"key\":\"lease\",\"value\":{\"instance\":\"me\"},\"ttlSeconds\":30,\"expect\":"
                + (lease + 7) + ",\"required\":true}]}");

        assertThat(a.status()).isEqualTo(200);
        JsonNode verdict = a.json();
        assertThat(verdict.get("ok").asBoolean()).isFalse();
        assertThat(verdict.get("reason").asText()).isEqualTo("kv_precondition");
        assertThat(verdict.get("failedIndex").asInt()).isEqualTo(1);
        assertThat(verdict.get("kvReason").asText()).isEqualTo("version");
        assertThat(verdict.get("version").asLong()).isEqualTo(lease);
        assertThat(verdict.get("value").get("instance").asText()).isEqualTo("other");
        assertThat(wire.kv("[{\"ns\":\"ns-c\",\"op\":\"get\",\"key\":\"intent\"}]").get("results").get(0).get("found").asBoolean())
                .isFalse();
    }

    @Test
    void aLostPreconditionThatIsNotRequiredLetsTheRestApply() {
        JsonNode results = wire.kv("[{\"ns\":\"ns-d\",\"op\":\"put\",\"key\":\"x\",\"value\":1,\"forever\":true,\"expect\":5},"
                + "{\"ns\":\"ns-d\",\"op\":\"put\",\"key\":\"y\",\"value\":2,\"forever\":true}]").get("results");
        assertThat(results.get(0).get("applied").asBoolean()).isFalse();
        assertThat(results.get(1).get("applied").asBoolean()).isTrue();
        assertThat(results.get(1).get("index").asInt()).isEqualTo(1);
    }

    @Test
    void expiredRowsReadAsAbsentAndLoseToExpectZero() {
        put("ns-e", "lease", "1", "", ",\"ttlSeconds\":30");
        CLOCK.advanceSeconds(31);
        JsonNode got = wire.kv("[{\"ns\":\"ns-e\",\"op\":\"get\",\"key\":\"lease\"}]").get("results").get(0);
        JsonNode taken = wire.kv("[{\"ns\":\"ns-e\",\"op\":\"putIfAbsent\",\"key\":\"lease\",\"value\":2,\"ttlSeconds\":30}]")
                .get("results").get(0);

        assertThat(got.get("found").asBoolean()).isFalse();
        assertThat(taken.get("applied").asBoolean()).isTrue();
        JsonNode row = wire.kv("[{\"ns\":\"ns-e\",\"op\":\"get\",\"key\":\"lease\"}]").get("results").get(0);
        assertThat(BrokerTime.parseMicros(row.get("expiresAt").asText()) - BrokerTime.parseMicros(row.get("updatedAt").asText()))
                .isEqualTo(30_000_000L);
    }

    @Test
    void getManyAndGetPrefixSeeTheBatchsOwnWrites() {
        JsonNode results = wire.kv("[{\"ns\":\"ns-f\",\"op\":\"getMany\",\"keys\":[\"n=1\",\"n=2\"]},"
                + "{\"ns\":\"ns-f\",\"op\":\"put\",\"key\":\"n=1\",\"value\":1,\"ttlSeconds\":30},"
                + "{\"ns\":\"ns-f\",\"op\":\"getPrefix\",\"prefix\":\"n=\",\"limit\":10}]").get("results");

        assertThat(results.get(0).get("rows")).hasSize(1);
        assertThat(results.get(0).get("rows").get(0).get("key").asText()).isEqualTo("n=1");
        assertThat(results.get(0).get("missing").get(0).asText()).isEqualTo("n=2");
        assertThat(results.get(2).get("rows")).hasSize(1);
        assertThat(results.get(2).get("truncated").asBoolean()).isFalse();
    }

    @Test
    void getPrefixPagesInKeyOrderWithAfter() {
        for (String k : new String[] {"p/c", "p/a", "p/b", "q/a"}) {
            put("ns-g", k, "0", "");
        }
        JsonNode first = wire.kv("[{\"ns\":\"ns-g\",\"op\":\"getPrefix\",\"prefix\":\"p/\",\"limit\":2}]").get("results").get(0);
        JsonNode second = wire.kv("[{\"ns\":\"ns-g\",\"op\":\"getPrefix\",\"prefix\":\"p/\",\"limit\":2,\"after\":\""
                + first.get("nextAfter").asText() + "\"}]").get("results").get(0);

        assertThat(first.get("rows").findValuesAsText("key")).containsExactly("p/a", "p/b");
        assertThat(first.get("truncated").asBoolean()).isTrue();
        assertThat(first.get("nextAfter").asText()).isEqualTo("p/b");
        assertThat(second.get("rows").findValuesAsText("key")).containsExactly("p/c");
        assertThat(second.get("truncated").asBoolean()).isFalse();
    }

    @Test
    void deleteWithAStaleExpectLosesAndAPlainDeleteRemoves() {
        long v = put("ns-h", "k", "1", "");
        JsonNode stale = wire.kv("[{\"ns\":\"ns-h\",\"op\":\"delete\",\"key\":\"k\",\"expect\":" + (v + 1) + "}]")
                .get("results").get(0);
        JsonNode gone = wire.kv("[{\"ns\":\"ns-h\",\"op\":\"delete\",\"key\":\"k\",\"expect\":" + v + "}]").get("results").get(0);

        assertThat(stale.get("applied").asBoolean()).isFalse();
        assertThat(stale.get("reason").asText()).isEqualTo("version");
        assertThat(gone.get("applied").asBoolean()).isTrue();
        assertThat(wire.kv("[{\"ns\":\"ns-h\",\"op\":\"get\",\"key\":\"k\"}]").get("results").get(0).get("found").asBoolean())
                .isFalse();
    }

    @Test
    void versionsComeFromOneGlobalSequenceAcrossNamespaces() {
        long a = put("ns-i", "k", "1", "");
        long b = put("ns-j", "k", "1", "");
        long c = put("ns-i", "k", "2", "");
        assertThat(b).isGreaterThan(a);
        assertThat(c).isGreaterThan(b);
    }

    @Test
    void badBatchesAreRefusedNamingTheRule() {
        StringBuilder ops = new StringBuilder();
        for (int i = 0; i < 257; i++) {
            ops.append(i == 0 ? "" : ",").append("{\"ns\":\"n\",\"op\":\"get\",\"key\":\"k\"}");
        }
        assertRefused("[" + ops + "]", 400, "kv_too_many_ops");
        assertRefused("[{\"ns\":\"n\",\"op\":\"put\",\"key\":\"k\",\"value\":1}]", 400, "kv_expiry_not_specified");
        assertRefused("[{\"ns\":\"n\",\"op\":\"put\",\"key\":\"k\",\"value\":1,\"forever\":false}]", 400, "kv_expiry_not_specified");
        assertRefused("[{\"ns\":\"n\",\"op\":\"put\",\"key\":\"k\",\"value\":1,\"forever\":true,\"ttlSeconds\":5}]", 400, "kv_bad_ttl");
        assertRefused("[{\"ns\":\"n\",\"op\":\"put\",\"key\":\"k\",\"value\":1,\"forever\":true,\"expect\":null}]", 400, "kv_bad_expect");
        assertRefused("[{\"ns\":\"Bad NS\",\"op\":\"get\",\"key\":\"k\"}]", 400, "kv_bad_namespace");
        assertRefused("[{\"ns\":\"n\",\"op\":\"getPrefix\",\"prefix\":\"\"}]", 400, "kv_prefix_required");
        assertRefused("[{\"ns\":\"n\",\"op\":\"put\",\"key\":\"k\",\"value\":\"" + "v".repeat(65_537) + "\",\"forever\":true}]",
                413, "kv_value_too_large");
    }

    @Test
    void kvIsPerTenant() {
        put("shared", "k", "\"default tenant\"", "");
        WireClient other = wire.with("x-queen-tenant", "11111111-2222-3333-4444-555555555555");
        JsonNode there = other.kv("[{\"ns\":\"shared\",\"op\":\"get\",\"key\":\"k\"}]").get("results").get(0);
        assertThat(there.get("found").asBoolean()).isFalse();
    }

    private static void assertRefused(String ops, int status, String reason) {
        WireClient.Answer a = wire.post("/api/v1/kv", "{\"operations\":" + ops + "}");
        assertThat(a.status()).as(ops.length() > 200 ? ops.substring(0, 200) : ops).isEqualTo(status);
        assertThat(a.json().get("reason").asText()).isEqualTo(reason);
        assertThat(a.json().get("detail").asText()).isNotBlank();
    }

    private static long put(String ns, String key, String value, String extra) {
        return put(ns, key, value, extra, ",\"forever\":true");
    }

    private static long put(String ns, String key, String value, String extra, String expiry) {
        JsonNode r = wire.kv("[{\"ns\":\"" + ns + "\",\"op\":\"put\",\"key\":\"" + key + "\",\"value\":" + value + expiry + extra + "}]")
                .get("results").get(0);
        assertThat(r.get("applied").asBoolean()).as(r.toString()).isTrue();
        return r.get("version").asLong();
    }
}
