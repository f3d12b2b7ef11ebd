package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Broker contract: payload bytes, stamps and safeTime (docs/BROKER-API.md, common rules and fetch). */
class PayloadAndStampContractITCase {

    private static BrokerTarget target;

    @BeforeAll
    static void start() throws Exception {
        target = BrokerTarget.fromEnvironment();
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    @Test
    void payloadBytesRoundTripExactly() {
        String queue = BrokerTarget.uniqueQueue("payload");
        String[] payloads = {
            "{\"b\":1,\"a\":123456789012345678901234567890,\"c\":1E+400,\"d\":-0}",
            "{\n  \"pretty\" : [ 1, 2.50 ],\n  \"nested\" : {\n    \"z\" : null\n  }\n}",
            "{\"order\":1,\"total\":42.00}",
            "\"escapes \\\" \\\\ \\/ \\u00e9 é \\n\"",
            "[1,-0.0,1e-7]",
            "42.00",
        };
        target.push(queue, "p", payloads);

        List<FetchedRecord> records = target.readAll(queue, "p", 0);
        assertThat(records).extracting(FetchedRecord::payloadText).containsExactly(payloads);
    }

    @Test
    void stampsStrictlyIncreaseWithinAPartitionAndOnePushSharesOne() {
        String queue = BrokerTarget.uniqueQueue("stamps");
        target.push(queue, "p", "1");
        target.push(queue, "p", "2", "3", "4");
        target.push(queue, "p", "5");
        List<FetchedRecord> records = target.readAll(queue, "p", 0);

        assertThat(records).extracting(FetchedRecord::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
        long first = records.get(0).tsMicros();
        long shared = records.get(1).tsMicros();
        long last = records.get(4).tsMicros();
        assertThat(shared).isGreaterThan(first);
        assertThat(records.get(2).tsMicros()).isEqualTo(shared);
        assertThat(records.get(3).tsMicros()).isEqualTo(shared);
        assertThat(last).isGreaterThan(shared);
    }

    @Test
    void allRecordsOfOnePushShareOneStampAcrossPartitions() {
        String queue = BrokerTarget.uniqueQueue("stamps-x");
        target.client().push(List.of(
                PushItem.of(queue, "a", BrokerTarget.uniqueTxn(), "1"),
                PushItem.of(queue, "b", BrokerTarget.uniqueTxn(), "2")));
        assertThat(target.readAll(queue, "a", 0).get(0).tsMicros())
                .isEqualTo(target.readAll(queue, "b", 0).get(0).tsMicros());
    }

    @Test
    void safeTimeCoversEveryAcknowledgedPush() {
        String queue = BrokerTarget.uniqueQueue("covered");
        target.push(queue, "p", "1");
        long stamp = target.readAll(queue, "p", 0).get(0).tsMicros();
        assertThat(target.safeTime()).isGreaterThanOrEqualTo(stamp);
    }

    @Test
    void safeTimeStandsStillWhileTheBrokerIsIdle() throws Exception {
        target.devOnly("a shared real broker is never known to be idle: other writers move its safeTime");
        long before = target.safeTime();
        target.passTime(Duration.ofSeconds(30));
        assertThat(target.safeTime()).isEqualTo(before);
    }

    @Test
    void aKvWriteMovesSafeTime() {
        long before = target.safeTime();
        KvAnswer answer = target.client().kv(List.of(KvOp.upsert("ql-contract", "tick-" + BrokerTarget.uniqueTxn(),
                RawJson.of("{\"beat\":1}"), KvExpiry.seconds(30))));
        assertThat(((KvResult.Written) ((KvAnswer.Results) answer).get(0)).applied()).isTrue();
        assertThat(target.safeTime()).isGreaterThan(before);
    }
}
