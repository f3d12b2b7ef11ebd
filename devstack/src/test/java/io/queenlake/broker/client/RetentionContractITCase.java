package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.broker.DevBroker;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Broker contract: retention gaps and the sink hold. Both need records older than the retention
 * age and a retention pass on demand, which only the dev broker (clock and runRetentionNow) gives.
 */
class RetentionContractITCase {

    private static final String WHY = "trimming on demand needs the dev broker's clock and runRetentionNow";
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
    void retentionMovesLogStartAndOldOffsetsBecomeOutOfRange() throws Exception {
        DevBroker dev = target.devOnly(WHY);
        String queue = BrokerTarget.uniqueQueue("retention");
        target.push(queue, "p", "0", "1", "2");
        target.passTime(Duration.ofSeconds(120));
        target.push(queue, "p", "3", "4");
        target.client().configure(queue, QueueOptions.retention(60));
        dev.runRetentionNow();

        FetchedPartition old = target.read(queue, "p", 0, 1 << 20);
        assertThat(old.error()).isEqualTo(EntryError.OFFSET_OUT_OF_RANGE);
        assertThat(old.logStartOffset()).isEqualTo(3);
        assertThat(old.highWatermark()).isEqualTo(5);
        assertThat(target.readAll(queue, "p", 3)).extracting(FetchedRecord::offset).containsExactly(3L, 4L);
        PartitionInfo info = target.client().partitionsChanged(List.of(ChangedQuery.firstPage(queue, 10)))
                .entries().get(0).partitions().get(0);
        assertThat(info.logStart()).isEqualTo(3);
        assertThat(info.lastOffset()).isEqualTo(4);
        assertThat(target.client().fetchOffsets(List.of(new OffsetQuery(queue, "p", 0))).get(0).offset()).hasValue(3);
    }

    @Test
    void theSinkHoldKeepsRecordsAfterCommittedTEndMinusAMinuteUntilItsMaximum() throws Exception {
        DevBroker dev = target.devOnly(WHY);
        String queue = BrokerTarget.uniqueQueue("hold");
        target.push(queue, "p", "\"a\"");
        target.passTime(Duration.ofSeconds(300));
        target.push(queue, "p", "\"b\"");
        target.passTime(Duration.ofSeconds(300));
        target.push(queue, "p", "\"c\"");
        long bStamp = target.readAll(queue, "p", 0).get(1).tsMicros();
        // committed.tEnd 30 s after b: the hold floor (tEnd - 60 s) sits just before b.
        String committed = "{\"k\":1,\"tEnd\":\"" + BrokerTime.render(bStamp + 30_000_000L) + "\"}";
        target.client().kv(List.of(KvOp.upsert("queen-s3", "s3:default:" + queue + ":committed",
                RawJson.of(committed), KvExpiry.forever())));

        target.client().configure(queue, QueueOptions.retention(1).heldBySink("default", 3_600));
        dev.runRetentionNow();
        assertThat(target.read(queue, "p", 0, 1 << 20).logStartOffset()).isEqualTo(1);

        target.client().configure(queue, QueueOptions.retention(1).heldBySink("default", 60));
        dev.runRetentionNow();
        assertThat(target.read(queue, "p", 0, 1 << 20).logStartOffset()).isEqualTo(2);
        assertThat(target.readAll(queue, "p", 2)).extracting(FetchedRecord::payloadText).containsExactly("\"c\"");
    }
}
