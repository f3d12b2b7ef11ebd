package io.queenlake.source.reader;

import static io.queenlake.source.reader.ReaderRig.seconds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueueOptions;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.event.PartitionReplaced;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.testutils.source.reader.TestingReaderContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class QueenSourceReaderTest {

    private static final long GUARD_MS = 20;
    private static final long WINDOW_MS = 60_000;

    private ReaderRig rig;

    @BeforeEach
    void startRig() throws Exception {
        rig = ReaderRig.start(GUARD_MS, WINDOW_MS);
    }

    @AfterEach
    void closeRig() throws Exception {
        rig.close();
    }

    private String idOf(String queue, String partition) {
        return ids(queue).get(partition);
    }

    private Map<String, String> ids(String queue) {
        return rig.ids(queue);
    }

    /** Polls until {@code records} records are out and the old incarnation's split has finished. */
    private void awaitTheNewIncarnationAlone(int records) throws Exception {
        rig.pollUntil("the new incarnation's record", () -> rig.output.records.size() == records, seconds(10));
        rig.pollUntil("the old split to finish", () -> rig.reader.getNumberOfCurrentlyAssignedSplits() == 1, seconds(5));
    }

    /** The reader's state holds one split, of incarnation {@code partitionId}. */
    private void assertOnlySplitIs(String partitionId) throws Exception {
        assertThat(rig.reader.snapshotState(2)).singleElement()
                .satisfies(s -> assertThat(s.partitionId()).isEqualTo(partitionId));
    }

    /** The docs/ARCHITECTURE.md promise for a frontier F in microseconds: W = floor((F + 1) / 1000) - 1. */
    private static long watermarkFor(long frontierMicros) {
        return Math.floorDiv(frontierMicros + 1, 1000L) - 1;
    }

    @Test
    void everyRecordIsEmittedOnceInOffsetOrderWithThePushedBytesAndItsStampsMillisecond() throws Exception {
        String queue = "orders/eu 1";
        String partition = "cust-😀-ü";
        String[] payloads = {
            "{\"b\":1,\"a\":123456789012345678901234567890,\"c\":1E+400,\"d\":-0}",
            "{\"spaced\" : [1, 2 ,3], \"esc\":\"\\u00e9\\n\"}",
            "\"a string with 😀\"",
            "42.00"
        };
        rig.push(queue, partition, payloads[0], payloads[1]);
        rig.push(queue, partition, payloads[2]);
        rig.push(queue, "other", "1");
        rig.push(queue, partition, payloads[3]);
        PartitionSplit main = PartitionSplit.atOffset(queue, partition, idOf(queue, partition), 0, Long.MIN_VALUE);
        PartitionSplit other = PartitionSplit.atOffset(queue, "other", idOf(queue, "other"), 0, Long.MIN_VALUE);
        rig.assign(main, other);

        rig.pollUntil("5 records", () -> rig.output.records.size() == 5, seconds(10));
        rig.pollFor(Duration.ofMillis(300));

        assertThat(rig.output.records).hasSize(5);
        assertThat(rig.offsetsOf(queue, partition)).containsExactly(0L, 1L, 2L, 3L);
        List<FetchedRecord> log = rig.log(queue, partition);
        List<RecordingReaderOutput.Stamped> emitted = rig.output.records.stream()
                .filter(s -> s.record().record().partition().equals(partition)).toList();
        for (int i = 0; i < payloads.length; i++) {
            QueueRecord record = emitted.get(i).record();
            assertThat(new String(record.record().payload(), StandardCharsets.UTF_8)).isEqualTo(payloads[i]);
            assertThat(record.record().payloadParsed()).as("parsed as JSON by the fetch decoder").isTrue();
            assertThat(record.record().tsMicros()).isEqualTo(log.get(i).tsMicros());
            assertThat(record.record().partitionId()).isEqualTo(main.partitionId());
            assertThat(record.lostBefore()).isEmpty();
            assertThat(emitted.get(i).timestamp()).isEqualTo(Math.floorDiv(log.get(i).tsMicros(), 1000L));
        }
        assertThat(emitted.get(0).record().record().tsMicros()).isEqualTo(emitted.get(1).record().record().tsMicros());
    }

    @Test
    void nothingIsReadBeforeThePassThenTheWatermarkIsSafeTimeMinusTheGuardOnceEverySplitCaughtUp() throws Exception {
        rig.push("q", "a", "1", "2");
        rig.push("q", "b", "3");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idOf("q", "b"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(a, b));
        rig.pollFor(Duration.ofMillis(300));
        assertThat(rig.output.records).as("no complete pass yet: the incarnations are unconfirmed").isEmpty();
        assertThat(rig.output.watermarks).as("no complete pass yet: nothing is known of the broker's clock,"
                + " only the first watermark that promises nothing and makes Flink's alignment count this reader")
                .containsExactly(ReaderWatermarks.NOTHING_YET);
        assertThat(rig.readerClient.fetchCalls.get()).isZero();

        PassCompleted pass = rig.passNow(a, b);
        rig.send(pass);
        rig.pollUntil("3 records", () -> rig.output.records.size() == 3, seconds(10));
        long expected = watermarkFor(pass.safeTimeMicros() - GUARD_MS * 1000);
        rig.pollUntil("the pass's watermark", () -> rig.output.lastWatermark() == expected, seconds(5));

        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aSplitBehindTheLastPassHoldsTheWatermarkJustBelowItsLastStamp() throws Exception {
        rig.push("q", "a", "1");
        rig.push("q", "b", "2");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idOf("q", "b"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(a, b));
        long stampA = rig.log("q", "a").get(0).tsMicros();
        rig.skewMicros.addAndGet(5_000_000L);
        rig.push("elsewhere", "x", "1"); // safeTime moves five seconds past both stamps
        // The pass claims more in "a" than it holds: "a" stays behind, so it stands at its last stamp - 1 us.
        PassCompleted pass = new PassCompleted(rig.safeTime(), Map.of(a.splitId(), 5L, b.splitId(), 0L));
        rig.send(pass);
        rig.pollUntil("2 records", () -> rig.output.records.size() == 2, seconds(10));

        rig.pollUntil("a watermark", () -> !rig.output.clockWatermarks().isEmpty(), seconds(5));
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.output.lastWatermark()).isEqualTo(watermarkFor(stampA - 1));
    }

    @Test
    void aReaderWithNoSplitFollowsThePass() throws Exception {
        long safeTime = rig.safeTime();
        rig.send(new PassCompleted(safeTime, Map.of()));

        rig.pollUntil("a watermark", () -> !rig.output.clockWatermarks().isEmpty(), seconds(5));

        assertThat(rig.output.lastWatermark()).isEqualTo(watermarkFor(safeTime - GUARD_MS * 1000));
    }

    @Test
    void aSeekByTimeStartsAtTheFirstRecordStampedAtOrAfterItAndNeverEmitsOneBelow() throws Exception {
        rig.push("q", "p", "\"old-1\"", "\"old-2\"");
        rig.skewMicros.addAndGet(400); // the next push lands in the same millisecond or the next, 400 us later
        rig.push("q", "p", "\"new-1\"", "\"new-2\"");
        rig.push("q", "p", "\"new-3\"");
        List<FetchedRecord> log = rig.log("q", "p");
        long from = log.get(2).tsMicros();
        PartitionSplit split = PartitionSplit.atTime("q", "p", idOf("q", "p"), from);
        rig.assign(split);

        rig.pollUntil("3 records", () -> rig.output.records.size() == 3, seconds(10));
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.offsetsOf("q", "p")).containsExactly(2L, 3L, 4L);
        assertThat(rig.readerClient.offsetCalls.get()).isEqualTo(1);
        List<PartitionSplit> state = rig.reader.snapshotState(1);
        assertThat(state).singleElement().satisfies(s -> {
            assertThat(s.nextOffset()).isEqualTo(5L);
            assertThat(s.skipBelowMicros()).isEqualTo(from);
        });
    }

    @Test
    void aSeekAboveEveryStampStartsAtTheHeadAndReadsWhatComesLater() throws Exception {
        rig.push("q", "p", "1", "2");
        PartitionSplit split = PartitionSplit.atTime("q", "p", idOf("q", "p"), rig.safeTime() + 1);
        rig.assign(split);
        rig.pollUntil("the seek", () -> rig.readerClient.offsetCalls.get() == 1, seconds(5));
        rig.pollFor(Duration.ofMillis(100));
        rig.push("q", "p", "3");
        rig.send(rig.passNow(split));

        rig.pollUntil("1 record", () -> rig.output.records.size() == 1, seconds(10));

        assertThat(rig.offsetsOf("q", "p")).containsExactly(2L);
    }

    @Test
    void aRetentionGapBecomesALostRangeOnTheNextRecordAndReadingContinues() throws Exception {
        rig.push("q", "p", "1", "2", "3");
        PartitionSplit split = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 1, Long.MIN_VALUE);
        rig.client.configure("q", QueueOptions.retention(60));
        rig.skewMicros.addAndGet(120_000_000L); // two minutes later: the three records are past retention
        rig.push("q", "p", "4");
        rig.broker.runRetentionNow();
        assertThat(rig.answer("q", "p", 0).logStartOffset()).isEqualTo(3L);
        rig.assign(split);

        rig.pollUntil("1 record", () -> rig.output.records.size() == 1, seconds(10));

        QueueRecord first = rig.output.records.get(0).record();
        assertThat(first.record().offset()).isEqualTo(3L);
        assertThat(first.lostBefore()).containsExactly(new LostRange("p", 1, 2));
        assertThat(rig.counter(QueenSourceMetrics.QUEUE_GROUP, "q", QueenSourceMetrics.RECORDS_LOST)).isEqualTo(2L);
    }

    @Test
    void aReplacedIncarnationLosesItsUnreadOffsetsOnTheNewIncarnationsFirstRecord() throws Exception {
        rig.push("q", "p", "1", "2", "3", "4", "5");
        PartitionSplit old = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.assign(old);
        rig.pollUntil("5 records", () -> rig.output.records.size() == 5, seconds(10));
        rig.pollFor(Duration.ofMillis(100));
        rig.push("q", "p", "6", "7", "8"); // offsets 5..7, never read: no pass announced them to the reader
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"reborn\"");
        String newId = idOf("q", "p");
        assertThat(newId).isNotEqualTo(old.partitionId());
        rig.send(new PartitionReplaced("q", "p", old.partitionId(), 7, newId));
        rig.assign(PartitionSplit.atOffset("q", "p", newId, 0, Long.MIN_VALUE));

        awaitTheNewIncarnationAlone(6);

        QueueRecord reborn = rig.output.records.get(5).record();
        assertThat(reborn.record().partitionId()).isEqualTo(newId);
        assertThat(reborn.record().offset()).isZero();
        assertThat(reborn.lostBefore()).containsExactly(new LostRange("p", 5, 7));
        assertOnlySplitIs(newId);
    }

    @Test
    void aNewIncarnationsSplitArrivingBeforeItsReplacementRetiresTheOldSplit() throws Exception {
        rig.push("q", "p", "1", "2", "3");
        PartitionSplit old = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.assign(old);
        rig.pollUntil("3 records", () -> rig.output.records.size() == 3, seconds(10));
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"reborn\"");
        String newId = idOf("q", "p");
        rig.assign(PartitionSplit.atOffset("q", "p", newId, 0, Long.MIN_VALUE)); // no PartitionReplaced first

        awaitTheNewIncarnationAlone(4);

        assertThat(rig.output.records.get(3).record().record().partitionId()).isEqualTo(newId);
        assertOnlySplitIs(newId);
    }

    @Test
    void twoIncarnationsOfAPartitionInOneAssignmentLeaveOnlyTheNewerToRead() throws Exception {
        rig.push("q", "p", "1", "2", "3");
        PartitionSplit old = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"reborn\"");
        String newId = idOf("q", "p");
        rig.assign(old, PartitionSplit.atOffset("q", "p", newId, 0, Long.MIN_VALUE));

        awaitTheNewIncarnationAlone(1);
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.output.records).singleElement()
                .satisfies(r -> assertThat(r.record().record().partitionId()).isEqualTo(newId));
        assertOnlySplitIs(newId);
    }

    @Test
    void aRestoredSplitWhoseIncarnationWasReplacedNeverReadsTheNewIncarnationAsItsOwn() throws Exception {
        rig.push("q", "p", "1", "2", "3", "4", "5");
        PartitionSplit restored = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 2, Long.MIN_VALUE);
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"n0\"", "\"n1\"", "\"n2\"", "\"n3\"", "\"n4\"", "\"n5\"", "\"n6\"", "\"n7\"");
        String newId = idOf("q", "p");
        rig.assign(restored); // the pass lists only the new incarnation
        rig.pollFor(Duration.ofMillis(300));
        assertThat(rig.output.records).as("offsets 2..7 of the new incarnation are not the old one's").isEmpty();

        rig.send(new PartitionReplaced("q", "p", restored.partitionId(), 4, newId));
        rig.assign(PartitionSplit.atOffset("q", "p", newId, 0, Long.MIN_VALUE));
        rig.pollUntil("the new incarnation", () -> rig.output.records.size() == 8, seconds(10));

        assertThat(rig.output.records).allSatisfy(r -> assertThat(r.record().record().partitionId()).isEqualTo(newId));
        assertThat(rig.offsetsOf("q", "p")).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(rig.output.records.get(0).record().lostBefore()).containsExactly(new LostRange("p", 2, 4));
    }

    @Test
    void idlePartitionsAreNotFetchedInALoop() throws Exception {
        int partitions = 300;
        List<PartitionSplit> splits = new java.util.ArrayList<>();
        List<PushItem> items = new java.util.ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            items.add(PushItem.of("idle", "p" + i, "t" + i, Integer.toString(i)));
        }
        rig.client.push(items);
        Map<String, String> ids = ids("idle");
        for (int i = 0; i < partitions; i++) {
            splits.add(PartitionSplit.atOffset("idle", "p" + i, ids.get("p" + i), 0, Long.MIN_VALUE));
        }
        rig.assign(splits.toArray(PartitionSplit[]::new));
        rig.pollUntil("every record", () -> rig.output.records.size() == partitions, seconds(10));
        rig.pollFor(Duration.ofMillis(200));
        int callsWhenCaughtUp = rig.readerClient.fetchCalls.get();

        for (int pass = 0; pass < 5; pass++) {
            rig.send(rig.passNow(splits.toArray(PartitionSplit[]::new)));
            rig.pollFor(Duration.ofMillis(200));
        }

        assertThat(rig.readerClient.fetchCalls.get())
                .as("five passes over caught-up partitions, a second of polling")
                .isEqualTo(callsWhenCaughtUp);
    }

    @Test
    void tenThousandPartitionsAreReadInCallsOfAtMost1024EntriesAndThenLeftAlone() throws Exception {
        int partitions = 10_000;
        List<PushItem> items = new java.util.ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            items.add(PushItem.of("wide", "p" + i, "t" + i, Integer.toString(i)));
        }
        rig.client.push(items);
        Map<String, String> ids = ids("wide");
        List<PartitionSplit> splits = new java.util.ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            splits.add(PartitionSplit.atOffset("wide", "p" + i, ids.get("p" + i), 0, Long.MIN_VALUE));
        }
        rig.assign(splits.toArray(PartitionSplit[]::new));

        rig.pollUntil("every record", () -> rig.output.records.size() == partitions, seconds(30));

        assertThat(rig.readerClient.fetchCalls.get()).as("10,000 entries, 1024 a call").isEqualTo(10);
        assertThat(rig.readerClient.fetchEntries.get()).isEqualTo(partitions);
        rig.send(rig.passNow(splits.toArray(PartitionSplit[]::new)));
        rig.pollFor(Duration.ofMillis(500));
        assertThat(rig.readerClient.fetchCalls.get()).as("caught up: nothing to fetch").isEqualTo(10);
        assertThat(rig.counter(QueenSourceMetrics.RESULT_GROUP, QueenSourceMetrics.RESULT_RECORDS,
                QueenSourceMetrics.FETCH_CALLS)).isEqualTo(10);
    }

    @Test
    void aSplitPausedForWatermarkAlignmentIsNotFetchedUntilResumed() throws Exception {
        rig.push("q", "a", "1");
        rig.push("q", "b", "1");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idOf("q", "b"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(a, b));
        rig.pollFor(Duration.ofMillis(200)); // the fetcher takes the splits (nothing is read before a pass)
        rig.reader.pauseOrResumeSplits(List.of(b.splitId()), List.of());
        rig.send(rig.passNow(a, b));

        rig.pollUntil("the record of a", () -> rig.output.records.size() == 1, seconds(10));
        rig.pollFor(Duration.ofMillis(300));
        assertThat(rig.offsetsOf("q", "b")).isEmpty();

        rig.reader.pauseOrResumeSplits(List.of(), List.of(b.splitId()));
        rig.pollUntil("the record of b", () -> rig.offsetsOf("q", "b").size() == 1, seconds(10));
    }

    @Test
    void aDeletedQueueFinishesItsSplitWithoutFailingTheReader() throws Exception {
        rig.push("alive", "p", "1");
        PartitionSplit ghost = PartitionSplit.atOffset("ghost", "p", "00000000-0000-0000-0000-00000000dead", 0, Long.MIN_VALUE);
        PartitionSplit alive = PartitionSplit.atOffset("alive", "p", idOf("alive", "p"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(ghost, alive));
        // The enumerator still knows the ghost queue's partition from before it was deleted.
        rig.send(new PassCompleted(rig.safeTime(), Map.of(ghost.splitId(), 3L, alive.splitId(), 0L)));

        rig.pollUntil("the live record", () -> rig.output.records.size() == 1, seconds(10));
        rig.pollUntil("the ghost split to finish", () -> rig.reader.getNumberOfCurrentlyAssignedSplits() == 1, seconds(5));

        assertThat(rig.reader.snapshotState(3)).singleElement().isEqualTo(alive.withNextOffset(1));
    }

    @Test
    void aSplitOneWindowAheadOfTheWatermarkWaitsForItToCatchUp() throws Exception {
        rig.push("q", "slow", "1");
        rig.skewMicros.addAndGet(10 * 60_000_000L); // ten minutes later on the broker's clock
        rig.push("q", "fast", "1");
        PartitionSplit slow = PartitionSplit.atOffset("q", "slow", idOf("q", "slow"), 0, Long.MIN_VALUE);
        PartitionSplit fast = PartitionSplit.atOffset("q", "fast", idOf("q", "fast"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(slow, fast));
        // "slow" is reported further than it can read: it stays behind, holding the watermark at its stamp.
        rig.send(new PassCompleted(rig.safeTime(), Map.of(slow.splitId(), 50L, fast.splitId(), 0L)));
        rig.pollUntil("2 records", () -> rig.output.records.size() == 2, seconds(10));
        rig.pollUntil("a watermark", () -> !rig.output.clockWatermarks().isEmpty(), seconds(5));
        rig.push("q", "fast", "2");
        rig.send(new PassCompleted(rig.safeTime(), Map.of(slow.splitId(), 50L, fast.splitId(), 1L)));

        rig.pollFor(Duration.ofMillis(600));
        assertThat(rig.offsetsOf("q", "fast")).as("ten minutes ahead of a one-minute window: paused").containsExactly(0L);

        rig.send(rig.passNow(slow, fast)); // now "slow" is caught up: the watermark jumps to safeTime
        rig.pollUntil("the paused record", () -> rig.offsetsOf("q", "fast").size() == 2, seconds(5));
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aRefusedTokenFailsTheJobForGoodWithTheBrokersSentence() throws Exception {
        try (DevBroker guarded = DevBroker.start(DevBrokerOptions.builder().token("right").build());
                QueenSourceReader reader = QueenSourceReader.create(
                        ReaderRig.config(guarded.url().toString(), 0, WINDOW_MS), new TestingReaderContext())) {
            reader.start();
            PartitionSplit split = PartitionSplit.atOffset("q", "p", "id", 0, Long.MIN_VALUE);
            reader.addSplits(List.of(split));
            reader.handleSourceEvents(new PassCompleted(1L, Map.of(split.splitId(), 0L)));
            RecordingReaderOutput output = new RecordingReaderOutput();
            assertThatThrownBy(() -> {
                long deadline = System.nanoTime() + seconds(10).toNanos();
                while (System.nanoTime() < deadline) {
                    reader.pollNext(output);
                    Thread.sleep(10);
                }
            }).hasStackTraceContaining("QUEEN_TOKEN")
                    .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, SuppressRestartsException.class))
                            .as("a refused token stops the job without a restart").isPresent());
        }
    }
}
