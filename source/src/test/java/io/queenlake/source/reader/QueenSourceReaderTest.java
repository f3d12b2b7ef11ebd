package io.queenlake.source.reader;

import static io.queenlake.source.reader.ReaderRig.pass;
import static io.queenlake.source.reader.ReaderRig.row;
import static io.queenlake.source.reader.ReaderRig.seconds;
import static io.queenlake.source.reader.ReaderRig.split;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueueOptions;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.format.manifest.Committed;
import io.queenlake.source.event.ListingRequest;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.event.PassUpdate;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueCut;
import io.queenlake.source.split.QueueSplit;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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

    /** Polls until {@code records} records are out; the queue's one split stays. */
    private void awaitTheNewIncarnationAlone(int records) throws Exception {
        rig.pollUntil("the new incarnation's record", () -> rig.output.records.size() == records, seconds(10));
        assertThat(rig.reader.getNumberOfCurrentlyAssignedSplits()).as("one split per queue, whatever its incarnations")
                .isEqualTo(1);
    }

    /** The reader's state holds one queue split, whose only partition is incarnation {@code partitionId}. */
    private void assertOnlySplitIs(String partitionId) throws Exception {
        assertThat(rig.reader.snapshotState(2)).singleElement()
                .satisfies(s -> assertThat(s.partitions()).singleElement()
                        .satisfies(p -> assertThat(p.partitionId()).isEqualTo(partitionId)));
    }

    /** Only what the test thread's snapshot asks: a fixed cut per queue. */
    private record FakeWindows(Map<String, OpenWindows.Snapshot> cuts) implements OpenWindows {
        @Override
        public Optional<Snapshot> snapshot(String queue) {
            return Optional.ofNullable(cuts.get(queue));
        }

        @Override
        public boolean overBudget() {
            return false;
        }
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
        rig.assign(split(main, other));

        rig.pollUntil("5 records", () -> rig.output.records.size() == 5, seconds(10));
        rig.pollFor(Duration.ofMillis(300));

        assertThat(rig.output.records).hasSize(5);
        assertThat(rig.output.events.get(0)).as("the queue's start comes first").isEqualTo(new QueueStart(queue, Optional.empty()));
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
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void nothingIsReadBeforeThePassThenTheQueuesFrontierAndTheWatermarkAreSafeTimeMinusTheGuard() throws Exception {
        rig.push("q", "a", "1", "2");
        rig.push("q", "b", "3");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idOf("q", "b"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(a, b)));
        rig.pollFor(Duration.ofMillis(300));
        assertThat(rig.output.records).as("no complete pass yet: the incarnations are unconfirmed").isEmpty();
        assertThat(rig.output.events).as("nothing, not even its start: the windows read the pointer when a pass lists"
                + " the queue").isEmpty();
        assertThat(rig.output.watermarks).as("no complete pass yet: nothing is known of the broker's clock").isEmpty();
        assertThat(rig.readerClient.fetchCalls.get()).isZero();

        PassCompleted pass = rig.passNow("q");
        rig.send(pass);
        rig.pollUntil("3 records", () -> rig.output.records.size() == 3, seconds(10));
        long frontier = pass.safeTimeMicros() - GUARD_MS * 1000;
        rig.pollUntil("the pass's watermark", () -> rig.output.lastWatermark() == watermarkFor(frontier), seconds(5));

        assertThat(rig.output.frontierOf("q")).isEqualTo(frontier);
        assertThat(rig.output.events.get(0)).as("the start before every other event").isEqualTo(
                new QueueStart("q", Optional.empty()));
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aPassUpdateBasedOnOneTheReaderNeverGotIsSetAsideAndTheWholeListingAskedFor() throws Exception {
        rig.push("q", "p", "1", "2");
        PartitionSplit p = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(p)));
        rig.reader.handleSourceEvents(PassUpdate.full(1, rig.safeTime(), Map.of("q", List.of(row(p, 1)))));
        rig.pollUntil("2 records", () -> rig.output.records.size() == 2, seconds(10));
        rig.pollUntil("the pass's frontier", () -> rig.output.frontierOf("q") != Long.MIN_VALUE, seconds(5));
        long frontier = rig.output.frontierOf("q");
        rig.skewMicros.addAndGet(5_000_000L);
        rig.push("elsewhere", "x", "1"); // safeTime moves five seconds on

        rig.reader.handleSourceEvents(new PassUpdate(3, 2, rig.safeTime(), Map.of(), Map.of(), Set.of()));
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.context.getSentEvents()).as("update 2 never arrived").containsExactly(new ListingRequest(1));
        assertThat(rig.output.frontierOf("q")).as("the frontier waits for the whole listing").isEqualTo(frontier);
    }

    @Test
    void whileTheWindowsBehindHaveNoRoomTheReaderEmitsNothingAndWaitsForRoom() throws Exception {
        CompletableFuture<Void> room = new CompletableFuture<>();
        OpenWindows full = new OpenWindows() {
            @Override
            public Optional<Snapshot> snapshot(String queue) {
                return Optional.empty();
            }

            @Override
            public boolean overBudget() {
                return false;
            }

            @Override
            public CompletableFuture<Void> ready() {
                return room;
            }
        };
        OpenWindows.register(full);
        try {
            rig.push("q", "p", "1", "2", "3");
            PartitionSplit p = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
            rig.assign(new QueueSplit("q", List.of(p), Optional.empty()));
            rig.pollFor(Duration.ofMillis(500));

            assertThat(rig.output.records).as("the sink behind is full").isEmpty();
            assertThat(rig.reader.isAvailable()).as("the task waits for room, not on its thread").isSameAs(room);

            room.complete(null);
            rig.pollUntil("3 records once there is room", () -> rig.output.records.size() == 3, seconds(10));
        } finally {
            OpenWindows.unregister(full);
        }
    }

    @Test
    void aPartitionBehindTheLastPassHoldsItsQueuesFrontierJustBelowItsLastStamp() throws Exception {
        rig.push("q", "a", "1");
        rig.push("q", "b", "2");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idOf("q", "b"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(a, b)));
        long stampA = rig.log("q", "a").get(0).tsMicros();
        rig.skewMicros.addAndGet(5_000_000L);
        rig.push("elsewhere", "x", "1"); // safeTime moves five seconds past both stamps
        // The pass claims more in "a" than it holds: "a" stays behind, so it stands at its last stamp - 1 us.
        rig.send(pass(rig.safeTime(), Map.of(a, 5L, b, 0L)));
        rig.pollUntil("2 records", () -> rig.output.records.size() == 2, seconds(10));

        rig.pollUntil("a watermark", () -> !rig.output.watermarks.isEmpty(), seconds(5));
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.output.frontierOf("q")).isEqualTo(stampA - 1);
        assertThat(rig.output.lastWatermark()).isEqualTo(watermarkFor(stampA - 1));
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aReaderWithNoSplitFollowsThePass() throws Exception {
        long safeTime = rig.safeTime();
        rig.send(new PassCompleted(safeTime, Map.of()));

        rig.pollUntil("a watermark", () -> !rig.output.watermarks.isEmpty(), seconds(5));

        assertThat(rig.output.lastWatermark()).isEqualTo(watermarkFor(safeTime - GUARD_MS * 1000));
        assertThat(rig.output.events).as("no queue, no queue event").isEmpty();
    }

    @Test
    void aQueueBehindDoesNotHoldBackAnotherQueuesFrontierAndTheWatermarkIsTheirMinimum() throws Exception {
        rig.push("backfill", "old", "1");
        long stampOld = rig.log("backfill", "old").get(0).tsMicros();
        rig.skewMicros.addAndGet(5_000_000L);
        rig.push("live", "p", "2");
        rig.skewMicros.addAndGet(5_000_000L);
        rig.push("elsewhere", "x", "1");
        PartitionSplit old = PartitionSplit.atOffset("backfill", "old", idOf("backfill", "old"), 0, Long.MIN_VALUE);
        PartitionSplit live = PartitionSplit.atOffset("live", "p", idOf("live", "p"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(old), split(live)));
        // "backfill" is reported far longer than it is read so far: it stays behind, as a backfill does.
        long first = rig.safeTime();
        rig.send(pass(first, Map.of(old, 500L, live, 0L)));
        rig.pollUntil("both records", () -> rig.output.records.size() == 2, seconds(10));
        rig.pollUntil("the live queue's frontier", () -> rig.output.frontierOf("live") == first - GUARD_MS * 1000,
                seconds(5));

        rig.skewMicros.addAndGet(1_000_000L);
        rig.push("elsewhere", "x", "2");
        long second = rig.safeTime();
        rig.send(pass(second, Map.of(old, 500L, live, 0L)));
        rig.pollUntil("the live queue's frontier to rise again",
                () -> rig.output.frontierOf("live") == second - GUARD_MS * 1000, seconds(5));
        rig.pollFor(Duration.ofMillis(100));

        assertThat(rig.output.frontiersOf("live")).as("each pass moves the live queue on its own")
                .containsExactly(first - GUARD_MS * 1000, second - GUARD_MS * 1000);
        assertThat(rig.output.frontiersOf("backfill")).containsExactly(stampOld - 1);
        assertThat(rig.output.lastWatermark()).as("the Flink watermark is the minimum over the queues")
                .isEqualTo(watermarkFor(stampOld - 1));
        assertThat(rig.output.events.stream().filter(e -> e instanceof QueueStart).map(e -> e.queue()))
                .containsExactlyInAnyOrder("backfill", "live");
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void theStartsOfThreeHundredQueuesCarryTheirPointersReadInFourKvCallsNotSixHundred() throws Exception {
        List<String> queues = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            queues.add("many-" + i);
            rig.push("many-" + i, "p", "1");
        }
        Committed pointer = new Committed(4, 1_000_000L, "m", 1, 1, 1L);
        CommitPointers store = new CommitPointers(rig.client, "test");
        assertThat(store.move("many-7", store.read("many-7"), pointer).applied()).isTrue();
        Map<PartitionSplit, Long> last = new HashMap<>();
        List<QueueSplit> splits = new ArrayList<>();
        for (String queue : queues) {
            PartitionSplit p = PartitionSplit.atOffset(queue, "p", idOf(queue, "p"), 0, Long.MIN_VALUE);
            splits.add(split(p));
            last.put(p, 0L);
        }
        rig.reader.addSplits(splits);
        int before = rig.readerClient.kvCalls.get();
        rig.send(pass(rig.safeTime(), last));
        rig.pollUntil("every queue's start", () -> rig.output.events.stream().filter(e -> e instanceof QueueStart)
                .count() == 300, seconds(20));

        assertThat(rig.readerClient.kvCalls.get() - before).as("KV calls: pointers and intents, 256 keys a call")
                .isEqualTo(4);
        List<QueueStart> starts = rig.output.events.stream().filter(e -> e instanceof QueueStart)
                .map(e -> (QueueStart) e).toList();
        assertThat(starts).allSatisfy(s -> assertThat(s.pointer()).as("%s", s.queue()).isPresent());
        assertThat(starts).filteredOn(s -> s.queue().equals("many-7")).singleElement()
                .satisfies(s -> assertThat(s.pointer().orElseThrow().committed()).contains(pointer));
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
        rig.assign(split(split));

        rig.pollUntil("3 records", () -> rig.output.records.size() == 3, seconds(10));
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.offsetsOf("q", "p")).containsExactly(2L, 3L, 4L);
        assertThat(rig.readerClient.offsetCalls.get()).isEqualTo(1);
        List<QueueSplit> state = rig.reader.snapshotState(1);
        assertThat(state).singleElement().satisfies(q -> assertThat(q.partitions()).singleElement().satisfies(s -> {
            assertThat(s.nextOffset()).isEqualTo(5L);
            assertThat(s.skipBelowMicros()).isEqualTo(from);
        }));
    }

    @Test
    void aSeekAboveEveryStampStartsAtTheHeadAndReadsWhatComesLater() throws Exception {
        rig.push("q", "p", "1", "2");
        PartitionSplit split = PartitionSplit.atTime("q", "p", idOf("q", "p"), rig.safeTime() + 1);
        rig.assign(split(split));
        rig.pollUntil("the seek", () -> rig.readerClient.offsetCalls.get() == 1, seconds(5));
        rig.pollFor(Duration.ofMillis(100));
        rig.push("q", "p", "3");
        rig.send(rig.passNow("q"));

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
        rig.assign(split(split));

        rig.pollUntil("1 record", () -> rig.output.records.size() == 1, seconds(10));

        QueueRecord first = rig.output.records.get(0).record();
        assertThat(first.record().offset()).isEqualTo(3L);
        assertThat(first.lostBefore()).containsExactly(new LostRange("p", 1, 2));
        assertThat(rig.counter(QueenSourceMetrics.RECORDS_LOST)).isEqualTo(2L);
    }

    @Test
    void aPartitionCreatedLaterJoinsTheQueuesSplitThroughTheNextPassWithoutANewSplit() throws Exception {
        rig.push("q", "a", "1", "2");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        rig.assign(split(a));
        rig.pollUntil("the records of a", () -> rig.output.records.size() == 2, seconds(10));
        rig.push("q", "b", "\"early\"");
        rig.skewMicros.addAndGet(2_000);
        rig.push("q", "b", "\"x\"", "\"y\"");
        rig.push("q", "c", "\"c\"");
        long skipBelow = rig.log("q", "b").get(1).tsMicros();
        String idB = idOf("q", "b");
        String idC = idOf("q", "c");
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idB, 0, skipBelow); // a pointer's tEnd
        PartitionSplit c = PartitionSplit.atOffset("q", "c", idC, 0, Long.MIN_VALUE);
        PassCompleted pass = rig.passNow("q");
        rig.send(pass(pass.safeTimeMicros(), Map.of(a, 1L, b, 2L, c, 0L)));

        rig.pollUntil("the joiners' records", () -> rig.output.records.size() == 5, seconds(10));
        rig.pollFor(Duration.ofMillis(200));

        assertThat(rig.offsetsOf("q", "b")).as("records below the joiner's start are never emitted").containsExactly(1L, 2L);
        assertThat(rig.offsetsOf("q", "c")).containsExactly(0L);
        assertThat(rig.reader.getNumberOfCurrentlyAssignedSplits()).isEqualTo(1);
        assertThat(rig.output.starts()).hasSize(1);
        assertThat(rig.reader.snapshotState(1)).singleElement().satisfies(s -> {
            assertThat(s.queue()).isEqualTo("q");
            assertThat(s.partitions()).containsExactlyInAnyOrder(a.withNextOffset(2), b.withNextOffset(3), c.withNextOffset(1));
        });
        PassCompleted next = rig.passNow("q"); // the joiners are caught up against the next pass
        rig.send(next);
        rig.pollUntil("the queue's frontier at the next pass",
                () -> rig.output.frontierOf("q") == next.safeTimeMicros() - GUARD_MS * 1000, seconds(5));
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aReplacedIncarnationRetiresWithItsUnreadOffsetsAsALostRangeOnThePartitionsNextRecord() throws Exception {
        rig.push("q", "p", "1", "2", "3", "4", "5");
        PartitionSplit old = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.assign(split(old));
        rig.pollUntil("5 records", () -> rig.output.records.size() == 5, seconds(10));
        rig.pollFor(Duration.ofMillis(100));
        rig.push("q", "p", "6", "7", "8"); // offsets 5..7, never read: no pass announced them to the reader
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"reborn\"");
        String newId = idOf("q", "p");
        assertThat(newId).isNotEqualTo(old.partitionId());
        rig.send(new PassCompleted(rig.safeTime(), Map.of("q", List.of(
                new PassCompleted.PassPartition("p", newId, 0, 0, Long.MIN_VALUE, old.partitionId(), 7)))));

        awaitTheNewIncarnationAlone(6);

        QueueRecord reborn = rig.output.records.get(5).record();
        assertThat(reborn.record().partitionId()).isEqualTo(newId);
        assertThat(reborn.record().offset()).isZero();
        assertThat(reborn.lostBefore()).containsExactly(new LostRange("p", 5, 7));
        assertThat(rig.counter(QueenSourceMetrics.RECORDS_LOST)).isEqualTo(3L);
        assertOnlySplitIs(newId);
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aPassListingANewIncarnationWithoutItsPredecessorRetiresTheOldOne() throws Exception {
        rig.push("q", "p", "1", "2", "3");
        PartitionSplit old = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.assign(split(old));
        rig.pollUntil("3 records", () -> rig.output.records.size() == 3, seconds(10));
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"reborn\"");
        String newId = idOf("q", "p");
        rig.send(rig.passNow("q")); // names no replaced incarnation: the old one was read to its end

        awaitTheNewIncarnationAlone(4);

        assertThat(rig.output.records.get(3).record().record().partitionId()).isEqualTo(newId);
        assertThat(rig.output.records.get(3).record().lostBefore()).isEmpty();
        assertOnlySplitIs(newId);
    }

    @Test
    void twoIncarnationsOfAPartitionInOneSplitLeaveOnlyTheListedOneToRead() throws Exception {
        rig.push("q", "p", "1", "2", "3");
        PartitionSplit old = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 0, Long.MIN_VALUE);
        rig.broker.deletePartition(ReaderRig.TENANT, "q", "p");
        rig.push("q", "p", "\"reborn\"");
        String newId = idOf("q", "p");
        rig.assign(split(old, PartitionSplit.atOffset("q", "p", newId, 0, Long.MIN_VALUE)));

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
        rig.reader.addSplits(List.of(split(restored)));
        rig.send(new PassCompleted(rig.safeTime(), Map.of("q", List.of()))); // a pass that does not list it
        rig.pollFor(Duration.ofMillis(300));
        assertThat(rig.output.records).as("an incarnation no pass lists is not read").isEmpty();

        rig.send(new PassCompleted(rig.safeTime(), Map.of("q", List.of(
                new PassCompleted.PassPartition("p", newId, 7, 0, Long.MIN_VALUE, restored.partitionId(), 4)))));
        rig.pollUntil("the new incarnation", () -> rig.output.records.size() == 8, seconds(10));

        assertThat(rig.output.records).allSatisfy(r -> assertThat(r.record().record().partitionId()).isEqualTo(newId));
        assertThat(rig.offsetsOf("q", "p")).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(rig.output.records.get(0).record().lostBefore()).containsExactly(new LostRange("p", 2, 4));
        assertOnlySplitIs(newId);
    }

    @Test
    void aRestoredCutsLostRangesRideOnThePartitionsNextRecordAndItsStartCarriesTheCut() throws Exception {
        rig.push("q", "p", "1", "2", "3", "4");
        PartitionSplit p = PartitionSplit.atOffset("q", "p", idOf("q", "p"), 2, Long.MIN_VALUE);
        QueueCut cut = new QueueCut(6, 1_000_000L, 500_000L, List.of(new CheckpointDoc.Position("p", 2, p.partitionId())),
                List.of(new LostRange("p", 0, 0)));
        rig.assign(new QueueSplit("q", List.of(p), Optional.of(cut)));

        rig.pollUntil("2 records", () -> rig.output.records.size() == 2, seconds(10));

        assertThat(rig.output.events.get(0)).isEqualTo(new QueueStart("q", Optional.of(cut)));
        assertThat(rig.output.records.get(0).record().record().offset()).isEqualTo(2L);
        assertThat(rig.output.records.get(0).record().lostBefore()).containsExactly(new LostRange("p", 0, 0));
        assertThat(rig.output.records.get(1).record().lostBefore()).isEmpty();
    }

    @Test
    void aCheckpointResumesEachPartitionAtItsOldestOpenRecordWithTheWindowsCutAndWithoutWindowsAtItsReadPosition()
            throws Exception {
        rig.push("q", "a", "1", "2", "3");
        rig.push("q", "b", "1", "2");
        rig.push("other", "x", "1");
        PartitionSplit a = PartitionSplit.atOffset("q", "a", idOf("q", "a"), 0, Long.MIN_VALUE);
        PartitionSplit b = PartitionSplit.atOffset("q", "b", idOf("q", "b"), 0, Long.MIN_VALUE);
        PartitionSplit x = PartitionSplit.atOffset("other", "x", idOf("other", "x"), 0, Long.MIN_VALUE);
        QueueCut came = new QueueCut(2, 5_000L, 1_000L, List.of(), List.of());
        rig.assign(new QueueSplit("q", List.of(a, b), Optional.of(came)), split(x));
        rig.pollUntil("6 records", () -> rig.output.records.size() == 6, seconds(10));

        QueueCut windowsCut = new QueueCut(3, 7_000L, 1_000L, List.of(new CheckpointDoc.Position("a", 1, a.partitionId())),
                List.of(new LostRange("a", 0, 0)));
        FakeWindows windows = new FakeWindows(Map.of("q",
                new OpenWindows.Snapshot(windowsCut, Map.of(a.splitId(), 1L))));
        List<QueueSplit> withWindows;
        OpenWindows.register(windows);
        try {
            withWindows = rig.reader.snapshotState(1);
        } finally {
            OpenWindows.unregister(windows);
        }
        List<QueueSplit> without = rig.reader.snapshotState(2);

        assertThat(withWindows).containsExactlyInAnyOrder(
                new QueueSplit("q", List.of(a.withNextOffset(1), b.withNextOffset(2)), Optional.of(windowsCut)),
                new QueueSplit("other", List.of(x.withNextOffset(1)), Optional.empty()));
        assertThat(without).as("no windows behind the reader: its read positions and the cut it came with")
                .containsExactlyInAnyOrder(
                        new QueueSplit("q", List.of(a.withNextOffset(3), b.withNextOffset(2)), Optional.of(came)),
                        new QueueSplit("other", List.of(x.withNextOffset(1)), Optional.empty()));
        assertThat(OpenWindows.ofThisTask()).isEmpty();
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
        rig.assign(split(splits.toArray(PartitionSplit[]::new)));
        rig.pollUntil("every record", () -> rig.output.records.size() == partitions, seconds(10));
        rig.pollFor(Duration.ofMillis(200));
        int callsWhenCaughtUp = rig.readerClient.fetchCalls.get();

        for (int pass = 0; pass < 5; pass++) {
            rig.send(rig.passNow("idle"));
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
        rig.assign(split(splits.toArray(PartitionSplit[]::new)));

        rig.pollUntil("every record", () -> rig.output.records.size() == partitions, seconds(30));

        assertThat(rig.readerClient.fetchCalls.get()).as("10,000 entries, 1024 a call").isEqualTo(10);
        assertThat(rig.readerClient.fetchEntries.get()).isEqualTo(partitions);
        rig.send(rig.passNow("wide"));
        rig.pollFor(Duration.ofMillis(500));
        assertThat(rig.readerClient.fetchCalls.get()).as("caught up: nothing to fetch").isEqualTo(10);
        assertThat(rig.counter(QueenSourceMetrics.RESULT_GROUP, QueenSourceMetrics.RESULT_RECORDS,
                QueenSourceMetrics.FETCH_CALLS)).isEqualTo(10);
    }

    @Test
    void aDeletedQueueRetiresItsPartitionsButKeepsItsSplitWithoutFailingTheReader() throws Exception {
        rig.push("alive", "p", "1");
        PartitionSplit ghost = PartitionSplit.atOffset("ghost", "p", "00000000-0000-0000-0000-00000000dead", 0, Long.MIN_VALUE);
        PartitionSplit alive = PartitionSplit.atOffset("alive", "p", idOf("alive", "p"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(ghost), split(alive)));
        // The enumerator still knows the ghost queue's partition from before it was deleted.
        rig.send(pass(rig.safeTime(), Map.of(ghost, 3L, alive, 0L)));

        rig.pollUntil("the live record", () -> rig.output.records.size() == 1, seconds(10));
        rig.pollUntil("the ghost partition to retire", () -> {
            try {
                return rig.reader.snapshotState(3).stream().anyMatch(s -> s.queue().equals("ghost") && s.partitions().isEmpty());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, seconds(5));

        assertThat(rig.reader.getNumberOfCurrentlyAssignedSplits()).as("a queue may be created again").isEqualTo(2);
        assertThat(rig.reader.snapshotState(4)).containsExactlyInAnyOrder(
                new QueueSplit("ghost", List.of(), Optional.empty()), split(alive.withNextOffset(1)));
        long safeTime = rig.safeTime();
        rig.send(pass(safeTime, Map.of(alive, 0L)));
        rig.pollUntil("a watermark the ghost queue does not hold",
                () -> rig.output.lastWatermark() == watermarkFor(safeTime - GUARD_MS * 1000), seconds(5));
    }

    @Test
    void aPartitionOneWindowAheadOfItsQueuesFrontierWaitsForItToCatchUp() throws Exception {
        rig.push("q", "slow", "1");
        rig.skewMicros.addAndGet(10 * 60_000_000L); // ten minutes later on the broker's clock
        rig.push("q", "fast", "1");
        PartitionSplit slow = PartitionSplit.atOffset("q", "slow", idOf("q", "slow"), 0, Long.MIN_VALUE);
        PartitionSplit fast = PartitionSplit.atOffset("q", "fast", idOf("q", "fast"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(slow, fast)));
        // "slow" is reported further than it can read: it stays behind, holding the frontier at its stamp.
        rig.send(pass(rig.safeTime(), Map.of(slow, 50L, fast, 0L)));
        rig.pollUntil("2 records", () -> rig.output.records.size() == 2, seconds(10));
        rig.pollUntil("a frontier", () -> rig.output.frontierOf("q") != Long.MIN_VALUE, seconds(5));
        rig.push("q", "fast", "2");
        rig.send(pass(rig.safeTime(), Map.of(slow, 50L, fast, 1L)));

        rig.pollFor(Duration.ofMillis(600));
        assertThat(rig.offsetsOf("q", "fast")).as("ten minutes ahead of a one-minute window: paused").containsExactly(0L);

        rig.send(rig.passNow("q")); // now "slow" is caught up: the frontier jumps to safeTime
        rig.pollUntil("the paused record", () -> rig.offsetsOf("q", "fast").size() == 2, seconds(5));
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void whileAPartitionHoldsItsQueueWithoutAFrontierTheOthersReadOneAskAndWait() throws Exception {
        rig.push("q", "stuck", "1");
        String[] big = new String[100];
        java.util.Arrays.fill(big, "\"" + "x".repeat(2_000) + "\"");
        rig.push("q", "long", big);
        PartitionSplit stuck = PartitionSplit.atOffset("q", "stuck", idOf("q", "stuck"), 1, Long.MIN_VALUE);
        PartitionSplit longer = PartitionSplit.atOffset("q", "long", idOf("q", "long"), 0, Long.MIN_VALUE);
        rig.reader.addSplits(List.of(split(stuck, longer)));
        // "stuck" is reported further than its log goes (a broker node behind): it has no frontier, nor its queue.
        rig.send(pass(rig.safeTime(), Map.of(stuck, 50L, longer, 99L)));
        rig.pollUntil("the first ask of long", () -> !rig.offsetsOf("q", "long").isEmpty(), seconds(10));
        rig.pollFor(Duration.ofMillis(500));

        assertThat(rig.output.frontierOf("q")).isEqualTo(Long.MIN_VALUE);
        assertThat(rig.offsetsOf("q", "long")).as("no window of the queue can close: one ask (16 KiB), not the log")
                .hasSizeLessThan(20);

        rig.send(rig.passNow("q")); // "stuck" is caught up now: the queue has a frontier
        rig.pollUntil("the rest of long", () -> rig.offsetsOf("q", "long").size() == 100, seconds(10));
        assertThat(rig.output.brokenPromises).isEmpty();
    }

    @Test
    void aRefusedTokenFailsTheJobForGoodWithTheBrokersSentence() throws Exception {
        try (DevBroker guarded = DevBroker.start(DevBrokerOptions.builder().token("right").build());
                QueenSourceReader reader = QueenSourceReader.create(
                        ReaderRig.config(guarded.url().toString(), 0, WINDOW_MS), new TestingReaderContext())) {
            reader.start();
            PartitionSplit split = PartitionSplit.atOffset("q", "p", "id", 0, Long.MIN_VALUE);
            reader.addSplits(List.of(split(split)));
            reader.handleSourceEvents(ReaderRig.asUpdate(pass(1L, Map.of(split, 0L))));
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
