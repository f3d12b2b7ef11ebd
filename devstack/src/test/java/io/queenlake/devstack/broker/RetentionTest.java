package io.queenlake.devstack.broker;

import io.queenlake.broker.kv.SinkKeys;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Retention by age, the sink hold on {@code committed.tEnd}, its maximum, and trimming under a read. */
class RetentionTest {

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
    void retentionRemovesRecordsOlderThanItsSecondsAndFetchReportsTheNewStart() {
        configure("aging", "{\"retentionEnabled\":true,\"retentionSeconds\":100}");
        wire.push("aging", "p", null, "1");
        CLOCK.advanceSeconds(50);
        wire.push("aging", "p", null, "2");
        CLOCK.advanceSeconds(60);

        broker.runRetentionNow();

        JsonNode below = wire.fetch("aging", "p", 0);
        assertThat(below.get("error").asText()).isEqualTo("OFFSET_OUT_OF_RANGE");
        assertThat(below.get("logStartOffset").asLong()).isEqualTo(1);
        assertThat(below.get("highWatermark").asLong()).isEqualTo(2);
        assertThat(wire.fetch("aging", "p", 1).get("records")).hasSize(1);
        JsonNode row = wire.changed("[{\"queue\":\"aging\"}]").get("entries").get(0).get("partitions").get(0);
        assertThat(row.get("logStart").asLong()).isEqualTo(1);
        assertThat(row.get("lastOffset").asLong()).isEqualTo(1);
    }

    @Test
    void aSinkHoldKeepsEverythingStampedAfterCommittedTEndMinusOneMinute() {
        configure("held/q", "{\"retentionEnabled\":true,\"retentionSeconds\":1,"
                + "\"retentionSinkHold\":\"default\",\"retentionSinkHoldMaxSeconds\":3600}");
        long t0 = stampOfPush("held/q", "1");
        CLOCK.advanceSeconds(120);
        long t1 = stampOfPush("held/q", "2");
        CLOCK.advanceSeconds(120);
        commitTEnd("default", "held/q", t0 + 60_000_000L); // tEnd - 60 s = t0: nothing may go

        broker.runRetentionNow();
        assertThat(wire.fetch("held/q", "p", 0).get("logStartOffset").asLong()).isZero();

        commitTEnd("default", "held/q", t1 + 60_000_000L); // now only the second record is held
        broker.runRetentionNow();
        assertThat(wire.fetch("held/q", "p", 1).get("logStartOffset").asLong()).isEqualTo(1);
    }

    @Test
    void aSinkThatNeverCommittedHoldsOnlyUpToTheMaximum() {
        configure("never", "{\"retentionEnabled\":true,\"retentionSeconds\":1,"
                + "\"retentionSinkHold\":\"default\",\"retentionSinkHoldMaxSeconds\":600}");
        stampOfPush("never", "1");
        CLOCK.advanceSeconds(300);
        broker.runRetentionNow();
        assertThat(wire.fetch("never", "p", 0).get("records")).hasSize(1);

        CLOCK.advanceSeconds(301);
        broker.runRetentionNow();
        assertThat(wire.fetch("never", "p", 0).get("error").asText()).isEqualTo("OFFSET_OUT_OF_RANGE");
    }

    @Test
    void aNumericTEndReadsAsNeverCommitted() {
        long tEnd = ManualClock.START + 10_000_000_000L;
        Tenant tenant = new Tenant(Tenant.DEFAULT_ID);
        tenant.kv().put("queen-s3", new SinkKeys("default").committed("q"),
                new KvRow(("{\"tEnd\":" + tEnd + "}").getBytes(), 1, 0, 1));
        assertThat(RetentionPass.committedTEnd(tenant, "q", "default", ManualClock.START)).isNull();
    }

    @Test
    void aTrimBetweenBoundsAndReadShowsAsAJumpNotAnError() {
        PartitionLog log = new PartitionLog("p", TimeOrderedIds.mint(1), 1, 0, 0);
        for (int i = 0; i < 5; i++) {
            log.append(StoredRecord.of(i, 10 + i, "t" + i, ("" + i).getBytes()));
        }
        PartitionLog.Bounds seen = log.bounds();
        log.trimTo(3);
        PartitionLog.Run run = log.read(1, 1 << 20, 10_000);

        assertThat(seen.logStart()).isZero();
        assertThat(Arrays.stream(run.records()).mapToLong(StoredRecord::offset).toArray()).containsExactly(3L, 4L);
    }

    @Test
    void badRetentionOptionsAreRefused() {
        WireClient.Answer a = wire.post("/api/v1/configure",
                "{\"queue\":\"bad\",\"options\":{\"retentionSinkHoldMaxSeconds\":5}}");
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.json().get("error").asText()).contains("retentionSinkHoldMaxSeconds");
    }

    private static void configure(String queue, String options) {
        WireClient.Answer a = wire.post("/api/v1/configure", "{\"queue\":\"" + queue + "\",\"options\":" + options + "}");
        assertThat(a.status()).as(a.text()).isEqualTo(200);
    }

    private static long stampOfPush(String queue, String payload) {
        long offset = wire.push(queue, "p", null, payload);
        return BrokerTime.parseMicros(wire.fetch(queue, "p", offset).get("records").get(0).get("ts").asText());
    }

    private static void commitTEnd(String sink, String queue, long tEndMicros) {
        wire.kv("[{\"ns\":\"queen-s3\",\"op\":\"put\",\"key\":\"" + new SinkKeys(sink).committed(queue)
                + "\",\"value\":{\"k\":1,\"tEnd\":\"" + BrokerTime.iso(tEndMicros) + "\"},\"forever\":true}]");
    }
}
