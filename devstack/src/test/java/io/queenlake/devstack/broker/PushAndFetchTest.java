package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Push and fetch over HTTP: dedup, verbatim payloads, shared stamps, limits, bounds and errors. */
class PushAndFetchTest {

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
    void theUrlIsLoopbackWithItsPortAndNoTrailingSlash() {
        assertThat(broker.url().toString()).isEqualTo("http://127.0.0.1:" + broker.port());
    }

    @Test
    void aRetriedTransactionIdAnswersDuplicateWithItsOriginalOffsetAndAppendsNothing() {
        long first = wire.push("dedup", "p", "t-1", "{\"n\":1}");
        wire.push("dedup", "p", "t-2", "{\"n\":2}");
        WireClient.Answer retry = wire.post("/api/v1/push",
                "{\"items\":[{\"queue\":\"dedup\",\"partition\":\"p\",\"transactionId\":\"t-1\",\"payload\":{\"n\":99}}]}");

        assertThat(retry.status()).isEqualTo(201);
        JsonNode element = retry.json().get(0);
        assertThat(element.get("status").asText()).isEqualTo("duplicate");
        assertThat(element.get("offset").asLong()).isEqualTo(first);
        assertThat(element.get("transaction_id").asText()).isEqualTo("t-1");
        JsonNode fetched = wire.fetch("dedup", "p", 0);
        assertThat(fetched.get("highWatermark").asLong()).isEqualTo(2);
        assertThat(fetched.get("records").get(0).get("payload").toString()).isEqualTo("{\"n\":1}");
    }

    @Test
    void theSameTransactionIdInAnotherPartitionIsNotADuplicate() {
        wire.push("dedup-2", "a", "same", "1");
        WireClient.Answer other = wire.post("/api/v1/push",
                "{\"items\":[{\"queue\":\"dedup-2\",\"partition\":\"b\",\"transactionId\":\"same\",\"payload\":2}]}");
        assertThat(other.json().get(0).get("status").asText()).isEqualTo("queued");
    }

    @Test
    void aTransactionIdIsForgottenOnlyAfterTheDedupWindow() {
        wire.push("dedup-3", "p", "late", "1");
        CLOCK.advanceSeconds(3599);
        assertThat(wire.post("/api/v1/push", "{\"items\":[{\"queue\":\"dedup-3\",\"partition\":\"p\",\"transactionId\":\"late\",\"payload\":1}]}")
                .json().get(0).get("status").asText()).isEqualTo("duplicate");
        CLOCK.advanceSeconds(2);
        JsonNode again = wire.post("/api/v1/push",
                "{\"items\":[{\"queue\":\"dedup-3\",\"partition\":\"p\",\"transactionId\":\"late\",\"payload\":1}]}").json().get(0);
        assertThat(again.get("status").asText()).isEqualTo("queued");
        assertThat(again.get("offset").asLong()).isEqualTo(1);
    }

    @Test
    void payloadsComeBackAsTheExactTextThatWasPushed() {
        String odd = "{\"b\":1,\"a\":123456789012345678901234567890,\"c\":1E+400,\"d\":-0,\"e\":\"\\u00e9\\n\"}";
        String pretty = "[ 1,\n  2 ]";
        wire.post("/api/v1/push", "{\"items\":[{\"queue\":\"verbatim\",\"payload\":  " + odd + "  },"
                + "{\"queue\":\"verbatim\",\"payload\":" + pretty + "},{\"queue\":\"verbatim\",\"payload\":\"s\\\"q\"},"
                + "{\"queue\":\"verbatim\",\"payload\":-12.5e3}]}");

        String raw = wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"verbatim\",\"offset\":0}]}").text();

        assertThat(raw).contains("\"payload\":" + odd + ",\"ts\"");
        assertThat(raw).contains("\"payload\":" + pretty + ",\"ts\"");
        assertThat(raw).contains("\"payload\":\"s\\\"q\",\"ts\"");
        assertThat(raw).contains("\"payload\":-12.5e3,\"ts\"");
        assertThat(raw).contains("\"partition\":\"Default\"");
    }

    @Test
    void aNumericPartitionIsNamedInDecimalAndAMissingTransactionIdIsMinted() {
        JsonNode pushed = wire.post("/api/v1/push", "{\"items\":[{\"queue\":\"numbers\",\"partition\":7,\"payload\":1}]}").json().get(0);
        assertThat(pushed.get("transaction_id").asText()).matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        JsonNode fetched = wire.fetch("numbers", "7", 0);
        assertThat(fetched.get("records").get(0).get("transactionId").asText()).isEqualTo(pushed.get("transaction_id").asText());
    }

    @Test
    void everyRecordOfOnePushSharesOneStampAndStampsIncreaseAcrossPushes() {
        wire.post("/api/v1/push", "{\"items\":[{\"queue\":\"stamps\",\"partition\":\"a\",\"payload\":1},"
                + "{\"queue\":\"stamps\",\"partition\":\"a\",\"payload\":2},{\"queue\":\"stamps\",\"partition\":\"b\",\"payload\":3}]}");
        wire.push("stamps", "a", null, "4");
        JsonNode a = wire.fetch("stamps", "a", 0).get("records");
        JsonNode b = wire.fetch("stamps", "b", 0).get("records");

        assertThat(a.get(0).get("ts").asText()).isEqualTo(a.get(1).get("ts").asText()).isEqualTo(b.get(0).get("ts").asText());
        // the clock stands still, so the second push is one microsecond later
        assertThat(BrokerTime.parseMicros(a.get(2).get("ts").asText()) - BrokerTime.parseMicros(a.get(0).get("ts").asText()))
                .isEqualTo(1);
        assertThat(a.get(0).get("ts").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z");
    }

    @Test
    void safeTimeStandsStillWhileNothingIsWrittenAndCoversEveryWrite() {
        wire.push("safe", "p", null, "1");
        String before = wire.safeTime();
        CLOCK.advanceSeconds(5);
        assertThat(wire.safeTime()).isEqualTo(before);
        wire.fetch("safe", "p", 0);
        assertThat(wire.safeTime()).isEqualTo(before);

        wire.push("safe", "p", null, "2");
        String afterPush = wire.safeTime();
        assertThat(afterPush).isEqualTo(wire.fetch("safe", "p", 1).get("records").get(0).get("ts").asText());

        CLOCK.advanceSeconds(1);
        wire.kv("[{\"ns\":\"leases\",\"op\":\"put\",\"key\":\"k\",\"value\":1,\"ttlSeconds\":30}]");
        assertThat(BrokerTime.parseMicros(wire.safeTime())).isGreaterThan(BrokerTime.parseMicros(afterPush));
    }

    @Test
    void maxBytesCountsPayloadBytesAndAlwaysDeliversTheFirstRecord() {
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            items.add("{\"queue\":\"budget\",\"payload\":\"" + "x".repeat(98) + "\"}");
        }
        wire.post("/api/v1/push", "{\"items\":[" + String.join(",", items) + "]}");

        JsonNode one = fetchWith("budget", 0, 1);
        JsonNode three = fetchWith("budget", 0, 300);
        JsonNode clampedUp = fetchWith("budget", 2, -5);

        assertThat(one.get("records")).hasSize(1);
        assertThat(three.get("records")).hasSize(3);
        assertThat(clampedUp.get("records")).hasSize(1);
        assertThat(clampedUp.get("records").get(0).get("offset").asLong()).isEqualTo(2);
    }

    @Test
    void anEntryCarriesAtMostTenThousandRecords() {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < 10_050; i++) {
            items.append(i == 0 ? "" : ",").append("{\"queue\":\"many\",\"payload\":").append(i).append('}');
        }
        wire.post("/api/v1/push", "{\"items\":[" + items + "]}");
        JsonNode e = fetchWith("many", 0, 8 << 20);
        assertThat(e.get("records")).hasSize(10_000);
        assertThat(e.get("highWatermark").asLong()).isEqualTo(10_050);
    }

    @Test
    void boundsDecideBetweenCaughtUpOutOfRangeUnknownAndNeverWritten() {
        wire.push("bounds", "p", null, "1");
        JsonNode caughtUp = wire.fetch("bounds", "p", 1);
        JsonNode beyond = wire.fetch("bounds", "p", 2);
        JsonNode unknown = wire.fetch("ghost-queue", "p", 0);
        JsonNode neverWritten = wire.fetch("bounds", "other", 0);
        JsonNode neverWrittenAhead = wire.fetch("bounds", "other", 1);

        assertThat(caughtUp.get("records")).isEmpty();
        assertThat(caughtUp.has("error")).isFalse();
        assertThat(beyond.get("error").asText()).isEqualTo("OFFSET_OUT_OF_RANGE");
        assertThat(beyond.get("highWatermark").asLong()).isEqualTo(1);
        assertThat(beyond.get("logStartOffset").asLong()).isZero();
        assertThat(unknown.get("error").asText()).isEqualTo("UNKNOWN_TOPIC_OR_PARTITION");
        assertThat(neverWritten.has("error")).isFalse();
        assertThat(neverWritten.get("highWatermark").asLong()).isZero();
        assertThat(neverWrittenAhead.get("error").asText()).isEqualTo("OFFSET_OUT_OF_RANGE");
    }

    @Test
    void entriesAreAnsweredInRequestOrder() {
        wire.push("order-a", "p", null, "1");
        JsonNode answer = wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"nope\",\"offset\":0},"
                + "{\"queue\":\"order-a\",\"partition\":\"p\",\"offset\":0},{\"queue\":\"order-a\",\"partition\":\"q\",\"offset\":0}]}")
                .json().get("entries");
        assertThat(answer).hasSize(3);
        assertThat(answer.get(0).get("queue").asText()).isEqualTo("nope");
        assertThat(answer.get(1).get("records")).hasSize(1);
        assertThat(answer.get(2).get("partition").asText()).isEqualTo("q");
    }

    @Test
    void requestsOutsideTheLimitsAreRefusedWithOneSentence() {
        StringBuilder entries = new StringBuilder();
        for (int i = 0; i < 1025; i++) {
            entries.append(i == 0 ? "" : ",").append("{\"queue\":\"q\",\"offset\":0}");
        }
        WireClient.Answer tooMany = wire.post("/api/v1/fetch", "{\"entries\":[" + entries + "]}");
        WireClient.Answer negative = wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"q\",\"offset\":-1}]}");
        WireClient.Answer empty = wire.post("/api/v1/fetch", "{\"entries\":[]}");
        WireClient.Answer data = wire.post("/api/v1/push", "{\"items\":[{\"queue\":\"q\",\"data\":1}]}");

        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.json().get("error").asText()).isEqualTo("too many entries");
        assertThat(tooMany.json().has("code")).isTrue();
        assertThat(negative.status()).isEqualTo(400);
        assertThat(negative.json().get("error").asText()).isEqualTo("offset must be non-negative");
        assertThat(empty.text()).isEqualTo("{\"entries\":[]}");
        assertThat(data.status()).isEqualTo(400);
    }

    @Test
    void aBodyOverSixtyFourMebibytesIsRefusedWith413() {
        byte[] big = new byte[(64 << 20) + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        WireClient.Answer a = wire.post("/api/v1/push", new String(big, java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(a.status()).isEqualTo(413);
    }

    @Test
    void anEmptyPushAnswersAnEmptyArray() {
        WireClient.Answer a = wire.post("/api/v1/push", "{\"items\":[]}");
        assertThat(a.status()).isEqualTo(201);
        assertThat(a.text()).isEqualTo("[]");
    }

    @Test
    void aLongPollWakesOnAPushAndAnIdleOneEndsAtItsDeadline() throws Exception {
        wire.push("poll", "p", null, "1");
        long started = System.nanoTime();
        JsonNode idle = wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"poll\",\"partition\":\"p\",\"offset\":1}],"
                + "\"maxWaitMs\":300,\"minBytes\":1}").json();
        assertThat((System.nanoTime() - started) / 1_000_000).isGreaterThanOrEqualTo(290);
        assertThat(idle.get("entries").get(0).get("records")).isEmpty();

        Thread pusher = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            wire.push("poll", "p", null, "2");
        });
        started = System.nanoTime();
        pusher.start();
        JsonNode woken = wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"poll\",\"partition\":\"p\",\"offset\":1}],"
                + "\"maxWaitMs\":20000,\"minBytes\":1}").json();
        pusher.join();
        assertThat(woken.get("entries").get(0).get("records")).hasSize(1);
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(10_000);
    }

    @Test
    void fetchOffsetsFindsTheFirstRecordAtOrAfterATime() {
        wire.push("times", "p", null, "1");
        long firstTs = BrokerTime.parseMicros(wire.fetch("times", "p", 0).get("records").get(0).get("ts").asText());
        CLOCK.advanceSeconds(10);
        wire.push("times", "p", null, "2");

        JsonNode found = wire.post("/api/v1/fetch/offsets", "{\"entries\":[{\"queue\":\"times\",\"partition\":\"p\",\"timestamp\":"
                + (firstTs / 1000 + 1) + "},{\"queue\":\"times\",\"partition\":\"p\",\"timestamp\":\"2000-01-01T00:00:00Z\"},"
                + "{\"queue\":\"times\",\"partition\":\"p\",\"timestamp\":" + (firstTs / 1000 + 60_000) + "}]}").json().get("entries");

        assertThat(found.get(0).get("offset").asLong()).isEqualTo(1);
        assertThat(found.get(1).get("offset").asLong()).isZero();
        assertThat(found.get(2).get("offset").isNull()).isTrue();
        assertThat(found.get(2).get("ts").isNull()).isTrue();
        assertThat(found.get(2).get("highWatermark").asLong()).isEqualTo(2);
        assertThat(wire.post("/api/v1/fetch/offsets", "{\"entries\":[{\"queue\":\"times\",\"timestamp\":true}]}").status())
                .isEqualTo(400);
    }

    private static JsonNode fetchWith(String queue, long offset, long maxBytes) {
        return wire.post("/api/v1/fetch", "{\"entries\":[{\"queue\":\"" + queue + "\",\"offset\":" + offset
                + ",\"maxBytes\":" + maxBytes + "}]}").json().get("entries").get(0);
    }
}
