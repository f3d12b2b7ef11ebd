package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.CheckpointDoc.Position;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.object.Format;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.format.window.WindowContent;
import io.queenlake.connector.testutils.CapturedLog;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import io.queenlake.source.PointerAtStart;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueCut;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The window operator in Flink's (non-keyed) operator harness, fed the source's queue events, with
 * the dev broker holding the commit pointers and intents. Each test uses its own sink name, so its
 * pointers are its own.
 */
class LakeWindowOperatorTest {

    private static final long WINDOW_MS = 60_000;
    /** 2026-10-03T06:00:00Z, the start of an hour. */
    private static final long T0 = 1_791_007_200_000_000L;
    private static final long W = WINDOW_MS * 1000;

    private static DevBroker broker;
    private static HttpQueenClient client;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** The lake's format the windows keep records in: JSONL lines, read back by {@link KeptRecords}. */
    private static final Format FORMAT = new Format.Jsonl(Compression.ZSTD);

    /**
     * What an open record with {@code payload} weighs in the memory budget: the JSONL line the window
     * keeps of it (for a two-digit offset, the longest these tests send) and the record's overhead.
     */
    private static long keptWeight(String payload) {
        RecordEncoding encoding = FORMAT.encoder().recordEncoding();
        RecordRun run = encoding.newRun("p", "id-p");
        encoding.append(record("q", "p", 10, T0 + 10, payload).record(), run);
        return OpenWindowBudget.weight(run.bytes());
    }

    private static WindowSettings settings(String sink, long targetBytes, int checkpointEvery) {
        return new WindowSettings(WindowSettings.DEFAULT_TENANT, sink, WINDOW_MS, Align.HOUR, targetBytes,
                checkpointEvery, broker.url().toString(), null, Duration.ofSeconds(5));
    }

    private static OneInputStreamOperatorTestHarness<QueueEvent, ClosedWindow> harness(WindowSettings settings)
            throws Exception {
        return new OneInputStreamOperatorTestHarness<>(new LakeWindowOperator(settings, FORMAT));
    }

    private static LakeWindowOperator operator(OneInputStreamOperatorTestHarness<QueueEvent, ClosedWindow> h) {
        return (LakeWindowOperator) h.getOperator();
    }

    private static QueueRecord record(String queue, String partition, long offset, long ts, String payload,
            LostRange... lost) {
        return record(queue, partition, "id-" + partition, offset, ts, payload, lost);
    }

    private static QueueRecord record(String queue, String partition, String partitionId, long offset, long ts,
            String payload, LostRange... lost) {
        return new QueueRecord(queue, new LogRecord(partition, partitionId, offset, "tx-" + offset, ts,
                payload.getBytes(StandardCharsets.UTF_8)), List.of(lost));
    }

    /** The windows emitted since the last drain. */
    private static List<ClosedWindow> drain(OneInputStreamOperatorTestHarness<QueueEvent, ClosedWindow> h) {
        List<ClosedWindow> out = h.extractOutputValues();
        h.getOutput().clear();
        return out;
    }

    private static void send(OneInputStreamOperatorTestHarness<QueueEvent, ClosedWindow> h, QueueEvent e)
            throws Exception {
        h.processElement(new StreamRecord<>(e));
    }

    private static void start(OneInputStreamOperatorTestHarness<QueueEvent, ClosedWindow> h, String... queues)
            throws Exception {
        for (String q : queues) {
            send(h, new QueueStart(q, Optional.empty()));
        }
    }

    private static void frontier(OneInputStreamOperatorTestHarness<QueueEvent, ClosedWindow> h, String queue,
            long f) throws Exception {
        send(h, new QueueFrontier(queue, f));
    }

    private static void pointer(String sink, String queue, long k, long tEnd) {
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys(sink).committed(queue),
                RawJson.ofUtf8(new Committed(k, tEnd, "m", 10, 100, 1).toJson()), KvExpiry.forever())));
    }

    private static QueueCut cut(long k, long lastEnd, long pointerEnd, Position... closed) {
        return new QueueCut(k, lastEnd, pointerEnd, List.of(closed), List.of());
    }

    private static List<QueueRecord> threeWindowsOfRecords() {
        List<QueueRecord> records = new ArrayList<>();
        long[] stamps = {T0, T0 + 5, T0 + W - 1, T0 + W, T0 + W + 123_456, T0 + 2 * W + 1, T0 + 3 * W - 1};
        int offset = 0;
        for (long ts : stamps) {
            for (String p : List.of("a", "b", "c")) {
                records.add(record("orders", p, offset, ts, "{\"n\":" + offset + "}"));
            }
            offset++;
        }
        return records;
    }

    @Test
    void aQueuesWindowsCloseOnItsOwnFrontierOnlyNeverOnAnotherQueuesNorOnAWatermark() throws Exception {
        try (var h = harness(settings("own-frontier", 1 << 20, 0))) {
            h.open();
            start(h, "orders", "payments");
            send(h, record("orders", "a", 0, T0 + W - 1, "1"));
            send(h, record("payments", "a", 0, T0 + 1, "1"));
            h.processWatermark(new Watermark((T0 + 2 * W) / 1000));
            h.processWatermark(Watermark.MAX_WATERMARK);
            frontier(h, "payments", T0 + 5 * W);
            assertThat(h.getOutput()).as("watermarks are forwarded unchanged")
                    .contains(new Watermark((T0 + 2 * W) / 1000), Watermark.MAX_WATERMARK);
            assertThat(drain(h)).as("another queue's frontier and the watermarks close nothing of orders")
                    .extracting(ClosedWindow::queue).containsExactly("payments");
            frontier(h, "orders", T0 + W - 2);
            assertThat(drain(h)).isEmpty();
            frontier(h, "orders", T0 + W - 1);
            List<ClosedWindow> out = drain(h);
            assertThat(out).singleElement().satisfies(w -> {
                assertThat(w.queue()).isEqualTo("orders");
                assertThat(w.k()).as("queues are numbered apart").isEqualTo(1);
                assertThat(w.window().bounds()).isEqualTo(new WindowBounds(T0, T0 + W));
            });
            assertThat(out).extracting(w -> w.window().tenant())
                    .containsOnly(WindowSettings.DEFAULT_TENANT);
            assertThat(out).extracting(ClosedWindow::checkpoint).containsOnly(Optional.empty());
        }
    }

    @Test
    void flinksFinalWatermarkLeavesOpenWindowsOpen() throws Exception {
        try (var h = harness(settings("drain", 1 << 20, 0))) {
            h.open();
            start(h, "orders");
            send(h, record("orders", "a", 0, T0 + 10, "12345"));
            h.processWatermark(Watermark.MAX_WATERMARK);
            assertThat(drain(h)).isEmpty();
            assertThat(operator(h).metricsOf("orders").bufferedBytes()).isEqualTo(5);
            assertThat(operator(h).snapshot("orders").orElseThrow().firstOpenOffsets())
                    .as("read again after a restart").containsOnlyKeys(PartitionSplit.splitId("orders", "a", "id-a"));
        }
    }

    @Test
    void recordsOfSeveralWindowsInShuffledArrivalOrderCloseIntoTheSameWindows() throws Exception {
        long seed = 4242L;
        Random random = new Random(seed);
        List<List<ClosedWindow>> runs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            // Partitions interleave at random; each partition's records still arrive in log order.
            List<QueueRecord> records = interleaved(threeWindowsOfRecords(), random);
            try (var h = harness(settings("shuffle", 1 << 20, 0))) {
                h.open();
                start(h, "orders");
                for (QueueRecord r : records) {
                    send(h, r);
                }
                frontier(h, "orders", T0 + 3 * W - 1);
                runs.add(drain(h));
            }
        }
        List<ClosedWindow> first = runs.get(0);
        assertThat(first).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L);
        assertThat(first).extracting(w -> w.window().tStart()).containsExactly(T0, T0 + W, T0 + 2 * W);
        assertThat(first).extracting(w -> w.window().tEnd()).containsExactly(T0 + W, T0 + 2 * W, T0 + 3 * W);
        assertThat(first).extracting(w -> KeptRecords.of(w).size()).containsExactly(9, 6, 6);
        for (List<ClosedWindow> other : runs.subList(1, runs.size())) {
            assertThat(other).as("seed %d", seed).hasSameSizeAs(first);
            for (int i = 0; i < first.size(); i++) {
                assertThat(KeptRecords.of(other.get(i)))
                        .as("seed %d window %d", seed, i)
                        .containsExactlyInAnyOrderElementsOf(KeptRecords.of(first.get(i)));
                assertThat(other.get(i).k()).isEqualTo(first.get(i).k());
            }
        }
    }

    /** {@code records} as parallel fetches deliver them: partitions interleaved, each in offset order. */
    private static List<QueueRecord> interleaved(List<QueueRecord> records, Random random) {
        Map<String, java.util.ArrayDeque<QueueRecord>> lanes = new java.util.LinkedHashMap<>();
        records.stream().sorted(java.util.Comparator.comparingLong(r -> r.record().offset())).forEach(r -> lanes
                .computeIfAbsent(r.record().partition() + "/" + r.record().partitionId(), k -> new java.util.ArrayDeque<>())
                .add(r));
        List<java.util.ArrayDeque<QueueRecord>> open = new ArrayList<>(lanes.values());
        List<QueueRecord> out = new ArrayList<>(records.size());
        while (!open.isEmpty()) {
            int i = random.nextInt(open.size());
            out.add(open.get(i).poll());
            if (open.get(i).isEmpty()) {
                open.remove(i);
            }
        }
        return out;
    }

    @Test
    void windowsTileAcrossEmptyGridCellsAndStartAgainAtTheNextHour() throws Exception {
        try (var h = harness(settings("tile", 1 << 20, 0))) {
            h.open();
            start(h, "orders");
            send(h, record("orders", "a", 0, T0 + 3 * W + 10, "1"));
            send(h, record("orders", "a", 1, T0 + 7 * W + 10, "2"));
            long nextHour = T0 + 60 * W;
            send(h, record("orders", "a", 2, nextHour + 2 * W + 10, "3"));
            frontier(h, "orders", nextHour + 3 * W - 1);
            List<ClosedWindow> out = drain(h);
            assertThat(out).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L);
            assertThat(out).extracting(w -> w.window().tStart())
                    .as("the first at its hour, the next where it ended, the third at the hour between")
                    .containsExactly(T0, T0 + 4 * W, nextHour);
            assertThat(out).extracting(w -> w.window().tEnd()).containsExactly(T0 + 4 * W, T0 + 8 * W, nextHour + 3 * W);
        }
    }

    @Test
    void theSizeCutNumbersSlicesConsecutivelyAndTheNextWindowContinues() throws Exception {
        try (var h = harness(settings("cut", 250, 0))) {
            h.open();
            start(h, "orders");
            for (int i = 0; i < 7; i++) {
                send(h, record("orders", "a", i, T0 + 1_000L * (i + 1), "x".repeat(100)));
            }
            send(h, record("orders", "a", 7, T0 + W + 1, "y"));
            frontier(h, "orders", T0 + 2 * W - 1);
            List<ClosedWindow> out = drain(h);
            assertThat(out).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L, 4L);
            assertThat(out).extracting(w -> KeptRecords.of(w).size()).containsExactly(3, 3, 1, 1);
            assertThat(out.get(1).window().tStart()).isEqualTo(out.get(0).window().tEnd());
            assertThat(out.get(2).window().tEnd()).isEqualTo(T0 + W);
            assertThat(out.get(3).window().tStart()).isEqualTo(T0 + W);
        }
    }

    @Test
    void thePieceBeforeASizeCutClosesOnceTheFrontierPassesTheCutNotWhenItsGridCellCloses() throws Exception {
        try (var h = harness(settings("cut-early", 250, 0))) {
            h.open();
            start(h, "orders");
            for (int i = 0; i < 7; i++) {
                send(h, record("orders", "a", i, T0 + 1_000L * (i + 1), "x".repeat(100)));
            }
            frontier(h, "orders", T0 + 3_999);
            assertThat(drain(h)).as("three records reach the target, but the cut is the next stamp, not passed yet")
                    .isEmpty();
            frontier(h, "orders", T0 + 4_000);
            assertThat(drain(h)).as("the cut at the 4th record's stamp is known, and nothing below it is to come")
                    .singleElement().satisfies(w -> {
                        assertThat(w.k()).isEqualTo(1L);
                        assertThat(w.window().bounds()).isEqualTo(new WindowBounds(T0, T0 + 4_000));
                        assertThat(KeptRecords.of(w)).extracting(LogRecord::offset).containsExactly(0L, 1L, 2L);
                    });
            frontier(h, "orders", T0 + 6_500);
            assertThat(drain(h)).as("the weight reached the target at the 6th record: the cut is the 7th's stamp,"
                    + " above the frontier").isEmpty();
            frontier(h, "orders", T0 + 6_800);
            assertThat(drain(h)).as("the frontier rose but no record passed it: still no cut").isEmpty();
            frontier(h, "orders", T0 + 7_000);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(2L);
                assertThat(w.window().bounds()).isEqualTo(new WindowBounds(T0 + 4_000, T0 + 7_000));
            });
            frontier(h, "orders", T0 + W - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(3L);
                assertThat(w.window().bounds()).as("the rest of the cell, at the cell's end")
                        .isEqualTo(new WindowBounds(T0 + 7_000, T0 + W));
                assertThat(KeptRecords.of(w)).extracting(LogRecord::offset).containsExactly(6L);
            });
        }
    }

    @Test
    void closingSizeCutPiecesAsTheFrontierMovesGivesTheWindowsOfClosingEachCellWhole() throws Exception {
        int closedBeforeTheirCell = 0;
        for (long seed = 1; seed <= 20; seed++) {
            Random random = new Random(seed);
            long target = 60 + random.nextInt(400);
            List<QueueEvent> events = randomEvents(random, 2_000);
            List<ClosedWindow> early = new ArrayList<>();
            try (var h = harness(settings("cut-as-read-" + seed, target, 0))) {
                h.open();
                start(h, "orders");
                long f = Long.MIN_VALUE;
                for (QueueEvent e : events) {
                    send(h, e);
                    if (e instanceof QueueFrontier frontier) {
                        f = frontier.frontierMicros();
                    }
                    for (ClosedWindow w : drain(h)) {
                        early.add(w);
                        long cellEnd = WindowRules.bounds(w.window().tEnd() - 1, WINDOW_MS, Align.HOUR).tEnd();
                        if (f < cellEnd - 1) {
                            closedBeforeTheirCell++;
                        }
                    }
                }
            }
            List<ClosedWindow> whole;
            try (var h = harness(settings("cut-at-close-" + seed, target, 0))) {
                h.open();
                start(h, "orders");
                // The same records with only the last frontier: every cell closes whole and is cut then.
                for (QueueEvent e : events.subList(0, events.size() - 1)) {
                    if (e instanceof QueueRecord) {
                        send(h, e);
                    }
                }
                send(h, events.get(events.size() - 1));
                whole = drain(h);
            }
            assertThat(early).as("seed %d", seed).hasSameSizeAs(whole);
            for (int i = 0; i < whole.size(); i++) {
                WindowContent a = early.get(i).window();
                WindowContent b = whole.get(i).window();
                assertThat(List.of(a.k(), a.tStart(), a.tEnd())).as("seed %d window %d", seed, i)
                        .isEqualTo(List.of(b.k(), b.tStart(), b.tEnd()));
                assertThat(KeptRecords.of(a)).as("seed %d k=%d", seed, a.k())
                        .containsExactlyInAnyOrderElementsOf(KeptRecords.of(b));
            }
        }
        assertThat(closedBeforeTheirCell).as("pieces closed while their cell was open").isGreaterThan(50);
    }

    @Test
    void aRecordAtOrBelowItsQueuesFrontierFailsTheJobAndIsCounted() throws Exception {
        try (var h = harness(settings("late", 1 << 20, 0))) {
            h.open();
            start(h, "orders", "payments");
            frontier(h, "orders", T0 + 5_000);
            frontier(h, "orders", T0 + 1_000); // frontiers never go back: ignored
            send(h, record("payments", "a", 0, T0 + 5_000, "another queue's frontier is not this one's"));
            send(h, record("orders", "a", 0, T0 + 5_001, "1"));
            QueueRecord late = record("orders", "p-7", 41, T0 + 5_000, "x");
            assertThatThrownBy(() -> send(h, late))
                    .isInstanceOf(LateRecordException.class)
                    .hasMessageContaining("record 41 of partition 'p-7' of queue 'orders'")
                    .hasMessageContaining("frontier " + (T0 + 5_000));
            assertThat(operator(h).metrics().lateRecords()).as("the late record, logged with its queue").isEqualTo(1);
        }
    }

    @Test
    void eventsOfAQueueNeverStartedAreRefusedNamingTheQueue() throws Exception {
        try (var h = harness(settings("unstarted", 1 << 20, 0))) {
            h.open();
            assertThatThrownBy(() -> send(h, record("ghost", "a", 0, T0, "1")))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("queue 'ghost'");
            assertThatThrownBy(() -> frontier(h, "ghost", T0))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("queue 'ghost'");
            assertThat(operator(h).snapshot("ghost")).isEmpty();
        }
    }

    @Test
    void aQueueWithoutCutContinuesFromTheCommitPointerAndDropsRecordsBelowIt() throws Exception {
        long pointerEnd = T0 + W + 30_000_500L;
        pointer("restore", "orders", 7, pointerEnd);
        try (var h = harness(settings("restore", 1 << 20, 0))) {
            h.open();
            start(h, "orders", "fresh");
            send(h, record("orders", "a", 0, T0 + 10, "old", new LostRange("a", 0, 0)));
            send(h, record("orders", "a", 1, pointerEnd - 1, "old"));
            send(h, record("orders", "a", 2, pointerEnd, "new"));
            send(h, record("orders", "a", 3, T0 + 2 * W + 7, "new"));
            send(h, record("fresh", "z", 0, T0 + 10, "other queue"));
            frontier(h, "orders", T0 + 3 * W - 1);
            frontier(h, "fresh", T0 + 3 * W - 1);
            List<ClosedWindow> out = drain(h);
            assertThat(out).filteredOn(w -> w.queue().equals("orders")).extracting(ClosedWindow::k)
                    .containsExactly(8L, 9L);
            ClosedWindow eighth = out.get(0);
            assertThat(eighth.window().tStart()).isEqualTo(pointerEnd);
            assertThat(eighth.window().tEnd()).isEqualTo(T0 + 2 * W);
            assertThat(KeptRecords.of(eighth)).extracting(LogRecord::offset).containsExactlyInAnyOrder(2L);
            assertThat(eighth.window().lost()).as("a lost range riding on a dropped record was committed before").isEmpty();
            assertThat(out).filteredOn(w -> w.queue().equals("fresh")).extracting(ClosedWindow::k).containsExactly(1L);
            // A re-read record below the pointer is dropped on arrival, even below the frontier: never late.
            send(h, record("orders", "a", 0, T0 + 10, "old"));
            assertThat(operator(h).metrics().recordsBelowPointer()).isEqualTo(3);
            assertThat(drain(h)).isEmpty();
        }
    }

    @Test
    void thePointerWinsOverAnOlderCut() throws Exception {
        long pointerEnd = T0 + 3 * W;
        pointer("pointer-ahead", "orders", 7, pointerEnd);
        try (var h = harness(settings("pointer-ahead", 1 << 20, 0))) {
            h.open();
            // An older savepoint: window 5 ended at T0 + W, but window 7 is committed since.
            send(h, new QueueStart("orders", Optional.of(cut(5, T0 + W, T0, new Position("a", 3, "id-a")))));
            send(h, record("orders", "a", 3, T0 + W + 1, "committed in window 6 or 7"));
            send(h, record("orders", "a", 9, pointerEnd + 1, "new"));
            frontier(h, "orders", T0 + 4 * W - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(8);
                assertThat(w.window().tStart()).isEqualTo(pointerEnd);
                assertThat(KeptRecords.of(w)).extracting(LogRecord::offset).containsExactlyInAnyOrder(9L);
            });
            assertThat(operator(h).metrics().recordsBelowPointer()).isEqualTo(1);
            QueueCut now = operator(h).snapshot("orders").orElseThrow().cut();
            assertThat(now.pointerEnd()).isEqualTo(pointerEnd);
            assertThat(now.closedPositions()).as("the older cut's positions are not carried")
                    .containsExactly(new Position("a", 10, "id-a"));
        }
    }

    @Test
    void aCutRestoreContinuesItsNumberingTilingAndPositions() throws Exception {
        pointer("cut-restore", "orders", 3, T0);
        // Window 5 was cut early at T0 + W + 500 us; windows 4 and 5 are closed but not committed yet.
        long lastEnd = T0 + W + 500;
        try (var h = harness(settings("cut-restore", 1 << 20, 2))) {
            h.open();
            send(h, new QueueStart("orders", Optional.of(cut(5, lastEnd, T0,
                    new Position("a", 4, "id-a"), new Position("b", 8, "id-b")))));
            assertThatThrownBy(() -> send(h, record("orders", "a", 3, lastEnd - 1, "in window 5")))
                    .as("window 5 closed because the frontier reached its end: a record below it is late")
                    .isInstanceOf(LateRecordException.class);
            send(h, record("orders", "a", 4, lastEnd, "1"));
            send(h, record("orders", "c", 0, T0 + 2 * W + 1, "2"));
            frontier(h, "orders", T0 + 3 * W - 1);
            List<ClosedWindow> out = drain(h);
            assertThat(out).extracting(ClosedWindow::k).containsExactly(6L, 7L);
            assertThat(out).extracting(w -> w.window().bounds()).containsExactly(
                    new WindowBounds(lastEnd, T0 + 2 * W), new WindowBounds(T0 + 2 * W, T0 + 3 * W));
            assertThat(out.get(0).checkpoint()).as("window 6 names the cut's positions too").contains(
                    new CheckpointDoc(6, T0 + 2 * W, List.of(new Position("a", 5, "id-a"), new Position("b", 8, "id-b"))));
            assertThat(out.get(1).checkpoint()).isEmpty();
        }
    }

    @Test
    void anOpenIntentIsRedoneFirstOnAnEmptyCutWithItsOwnBoundsAndFormat() throws Exception {
        // Window 8 was written with 30 s windows before the crash: its intent says [T0 + W, T0 + W + 30 s).
        long pointerEnd = T0 + W;
        long intentEnd = T0 + W + 30_000_000L;
        Intent intent = intent("redo", 7, pointerEnd, 8, intentEnd);
        try (var h = harness(settings("redo", 1, 0))) {
            h.open();
            start(h, "orders");
            send(h, record("orders", "a", 0, pointerEnd - 1, "committed before"));
            send(h, record("orders", "a", 1, pointerEnd, "redo"));
            send(h, record("orders", "b", 0, intentEnd - 1, "redo"));
            send(h, record("orders", "a", 2, intentEnd, "own grid"));
            send(h, record("orders", "b", 1, intentEnd + 5, "own grid"));
            frontier(h, "orders", intentEnd - 2);
            assertThat(drain(h)).isEmpty();
            frontier(h, "orders", intentEnd - 1);
            assertThat(drain(h)).singleElement().satisfies(redo -> {
                assertThat(redo.k()).isEqualTo(8);
                assertThat(redo.window().bounds()).isEqualTo(new WindowBounds(pointerEnd, intentEnd));
                assertThat(KeptRecords.of(redo)).as("never size-cut, though the target is 1 byte")
                        .extracting(LogRecord::offset).containsExactlyInAnyOrder(1L, 0L);
                assertThat(redo.redo()).contains(intent);
            });
            frontier(h, "orders", T0 + 2 * W - 1);
            List<ClosedWindow> out = drain(h);
            // After it, this job's own 60 s grid, tiled from the intent's end and size-cut by its own target.
            assertThat(out).extracting(ClosedWindow::k).containsExactly(9L, 10L);
            assertThat(out.get(0).window().tStart()).isEqualTo(intentEnd);
            assertThat(out.get(1).window().tEnd()).isEqualTo(T0 + 2 * W);
            assertThat(out).allSatisfy(w -> assertThat(w.redo()).isEmpty());
        }
    }

    @Test
    void aRecordBetweenThePointerAndAnOpenIntentFailsTheJob() throws Exception {
        intent("redo-gap", 7, T0 + W / 2, 8, T0 + W, T0 + 2 * W);
        try (var h = harness(settings("redo-gap", 1 << 20, 0))) {
            h.open();
            start(h, "orders");
            assertThatThrownBy(() -> send(h, record("orders", "a", 0, T0 + W / 2 + 1, "between")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("between the commit pointer's tEnd and the start " + (T0 + W));
        }
    }

    @Test
    void anOpenIntentIsRedoneWhenItNamesTheWindowAfterTheCutAndNotOtherwise() throws Exception {
        long pointerEnd = T0 + W;
        long intentEnd = T0 + W + 30_000_000L;
        Intent intent = intent("redo-cut", 7, pointerEnd, 8, intentEnd);
        try (var h = harness(settings("redo-cut", 1 << 20, 0))) {
            h.open();
            send(h, new QueueStart("orders", Optional.of(cut(7, pointerEnd, pointerEnd))));
            send(h, record("orders", "a", 1, pointerEnd + 1, "redo"));
            frontier(h, "orders", intentEnd - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(8);
                assertThat(w.redo()).contains(intent);
            });
        }
        intent("redo-past", 7, pointerEnd, 8, intentEnd);
        try (var h = harness(settings("redo-past", 1 << 20, 0))) {
            h.open();
            // Windows 8 and 9 closed after the intent was written: the cut is past it, nothing is redone.
            send(h, new QueueStart("orders", Optional.of(cut(9, T0 + 2 * W, pointerEnd))));
            send(h, record("orders", "a", 5, T0 + 2 * W + 1, "own grid"));
            frontier(h, "orders", T0 + 3 * W - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(10);
                assertThat(w.redo()).isEmpty();
                assertThat(w.window().tStart()).isEqualTo(T0 + 2 * W);
            });
        }
    }

    @Test
    void aStartCarryingThePointerAndIntentTheReaderReadInABatchContinuesFromThemWithoutReadingItself() throws Exception {
        long pointerEnd = T0 + W;
        long intentEnd = T0 + W + 30_000_000L;
        Intent open = new Intent(5, pointerEnd, intentEnd, "jsonl", "gzip", Layout.PER_PARTITION,
                "queen-lake/0.1.0 jsonl+gzip");
        // Nothing is stored under this sink: a read of its own would start the queue at k=1.
        PointerAtStart read = new PointerAtStart(Optional.of(new Committed(4, pointerEnd, "m", 10, 100, 1)),
                Optional.of(open));
        try (var h = harness(settings("batch-read", 1 << 20, 0))) {
            h.open();
            send(h, new QueueStart("orders", Optional.empty(), Optional.of(read)));
            send(h, record("orders", "a", 1, pointerEnd + 1, "redo"));
            frontier(h, "orders", intentEnd - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(5);
                assertThat(w.redo()).contains(open);
            });
        }
        Intent stale = new Intent(4, T0, pointerEnd, "jsonl", "gzip", Layout.PER_PARTITION, "queen-lake/0.1.0 jsonl+gzip");
        try (var h = harness(settings("batch-read-closed", 1 << 20, 0))) {
            h.open();
            // The intent of window 4, which the pointer already covers, is not open: nothing is redone.
            send(h, new QueueStart("orders", Optional.empty(), Optional.of(new PointerAtStart(
                    Optional.of(new Committed(4, pointerEnd, "m", 10, 100, 1)), Optional.of(stale)))));
            send(h, record("orders", "a", 1, pointerEnd + 1, "next"));
            frontier(h, "orders", T0 + 2 * W - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(5);
                assertThat(w.redo()).isEmpty();
            });
        }
    }

    private static Intent intent(String sink, long pointerK, long pointerEnd, long k, long intentEnd) {
        return intent(sink, pointerK, pointerEnd, k, pointerEnd, intentEnd);
    }

    private static Intent intent(String sink, long pointerK, long pointerEnd, long k, long intentStart,
            long intentEnd) {
        pointer(sink, "orders", pointerK, pointerEnd);
        Intent intent = new Intent(k, intentStart, intentEnd, "jsonl", "gzip", Layout.PER_PARTITION,
                "queen-lake/0.1.0 jsonl+gzip");
        new Intents(client, sink).write("orders", ObservedIntent.absent(), intent);
        return intent;
    }

    @Test
    void aQueueStartedAgainDropsItsOpenWindowsAndContinuesFromTheNewCut() throws Exception {
        try (var h = harness(settings("again", 1 << 20, 0))) {
            h.open();
            start(h, "orders", "payments");
            send(h, record("orders", "a", 0, T0 + 1, "11"));
            send(h, record("orders", "a", 1, T0 + W + 1, "22"));
            send(h, record("payments", "a", 0, T0 + 1, "33"));
            frontier(h, "orders", T0 + W - 1);
            assertThat(drain(h)).extracting(ClosedWindow::k).containsExactly(1L);
            // The lease was lost and the split came back with the cut of a later checkpoint.
            send(h, new QueueStart("orders", Optional.of(cut(1, T0 + W, Long.MIN_VALUE))));
            assertThat(operator(h).metricsOf("orders").bufferedBytes()).isZero();
            assertThat(operator(h).snapshot("orders").orElseThrow().firstOpenOffsets()).isEmpty();
            send(h, record("orders", "a", 1, T0 + W + 1, "22"));
            frontier(h, "orders", T0 + 2 * W - 1);
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(2);
                assertThat(w.window().tStart()).isEqualTo(T0 + W);
                assertThat(KeptRecords.of(w)).extracting(LogRecord::offset).containsExactlyInAnyOrder(1L);
            });
            assertThat(operator(h).metricsOf("payments").bufferedBytes()).as("other queues keep theirs").isEqualTo(2);
        }
    }

    @Test
    void theSnapshotNamesEachIncarnationsOldestOpenRecordTheLostRangesOnItAndTheClosedPositions() throws Exception {
        try (var h = harness(settings("snapshot", 1 << 20, 0))) {
            h.open();
            assertThat(OpenWindows.ofThisTask()).as("registered for the task's thread").containsSame(operator(h));
            start(h, "orders");
            send(h, record("orders", "a", "old", 10, T0 + 1, "1"));
            send(h, record("orders", "b", 5, T0 + 2, "1", new LostRange("b", 0, 5)));
            send(h, record("orders", "a", "old", 11, T0 + W + 1, "1", new LostRange("a", 3, 10)));
            send(h, record("orders", "b", 6, T0 + W + 2, "1", new LostRange("b", 6, 6)));
            // Partition a re-created: its new incarnation starts at 0, the old one's end rides on its first record.
            send(h, record("orders", "a", "new", 0, T0 + W + 5, "1", new LostRange("a", 12, 20)));
            send(h, record("orders", "a", "new", 1, T0 + 2 * W + 6, "1"));
            send(h, record("orders", "b", 7, T0 + 2 * W + 1, "1"));
            frontier(h, "orders", T0 + W - 1);
            assertThat(drain(h)).singleElement().satisfies(w ->
                    assertThat(w.window().lost()).containsExactly(new LostRange("b", 0, 5)));
            OpenWindows.Snapshot s = operator(h).snapshot("orders").orElseThrow();
            assertThat(s.firstOpenOffsets()).isEqualTo(Map.of(
                    PartitionSplit.splitId("orders", "a", "old"), 11L,
                    PartitionSplit.splitId("orders", "a", "new"), 0L,
                    PartitionSplit.splitId("orders", "b", "id-b"), 6L));
            assertThat(s.cut()).isEqualTo(new QueueCut(1, T0 + W, Long.MIN_VALUE,
                    List.of(new Position("a", 11, "old"), new Position("b", 6, "id-b")),
                    List.of(new LostRange("a", 3, 10), new LostRange("a", 12, 20), new LostRange("b", 6, 6))));
            assertThat(operator(h).closedThrough("orders")).hasValue(T0 + W);
            frontier(h, "orders", T0 + 5 * W);
            assertThat(drain(h)).extracting(ClosedWindow::k).containsExactly(2L, 3L);
            OpenWindows.Snapshot all = operator(h).snapshot("orders").orElseThrow();
            assertThat(all.firstOpenOffsets()).isEmpty();
            assertThat(all.cut().pendingLost()).isEmpty();
            assertThat(all.cut().closedPositions()).containsExactly(
                    new Position("a", 2, "new"), new Position("b", 8, "id-b"));
            assertThat(operator(h).closedThrough("orders")).as("nothing open: up to the frontier")
                    .hasValue(T0 + 5 * W + 1);
            assertThat(operator(h).windowsOf("orders").closedThroughAtSnapshot()).isEqualTo(T0 + 5 * W + 1);
            assertThat(operator(h).closedThrough("other")).isEqualTo(OptionalLong.empty());
        }
        assertThat(OpenWindows.ofThisTask()).as("unregistered on close").isEmpty();
    }

    @Test
    void overTheMemoryBudgetTheLargestQueueClosesEarlyAtItsFrontierAndEveryRecordIsInExactlyOneWindow()
            throws Exception {
        long weight = keptWeight("x".repeat(100));
        // Room for 14 open records of 100 payload bytes: the 15th goes over.
        WindowSettings settings = settings("memory", 1 << 20, 0).withMemoryBytes(14 * weight);
        List<QueueRecord> big = new ArrayList<>();
        List<ClosedWindow> out = new ArrayList<>();
        try (var h = harness(settings)) {
            h.open();
            start(h, "big", "small");
            for (int i = 0; i < 2; i++) {
                send(h, record("small", "s", i, T0 + 10 + i, "s".repeat(100)));
            }
            int offset = 0;
            for (; offset < 5; offset++) {
                big.add(record("big", offset % 2 == 0 ? "a" : "b", offset, T0 + 10 * (offset + 1), "x".repeat(100)));
                send(h, big.get(offset));
            }
            frontier(h, "big", T0 + 55);
            for (; offset < 12; offset++) {
                big.add(record("big", "a", offset, T0 + 10 * (offset + 1), "x".repeat(100)));
                send(h, big.get(offset));
            }
            assertThat(drain(h)).as("at the budget, not over it").isEmpty();
            assertThat(operator(h).overBudget()).isFalse();
            big.add(record("big", "b", offset, T0 + 10 * (++offset), "x".repeat(100)));
            send(h, big.get(big.size() - 1));
            List<ClosedWindow> early = drain(h);
            assertThat(early).singleElement().satisfies(w -> {
                assertThat(w.queue()).isEqualTo("big");
                assertThat(w.k()).isEqualTo(1);
                assertThat(w.window().bounds()).as("ends at the frontier + 1").isEqualTo(new WindowBounds(T0, T0 + 56));
                assertThat(KeptRecords.of(w)).extracting(LogRecord::offset).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L);
            });
            out.addAll(early);
            assertThat(operator(h).overBudget()).isFalse();
            assertThat(operator(h).metricsOf("big").bufferedBytes()).isEqualTo(8 * 100);
            // Over again, but nothing at or below the frontier: nothing closes until the frontier moves.
            for (int i = 0; i < 6; i++, offset++) {
                big.add(record("big", "a", offset, T0 + 10 * (offset + 1), "x".repeat(100)));
                send(h, big.get(big.size() - 1));
            }
            assertThat(operator(h).overBudget()).isTrue();
            assertThat(drain(h)).isEmpty();
            frontier(h, "big", T0 + 195);
            big.add(record("big", "b", offset, T0 + 10 * (offset + 1), "x".repeat(100)));
            offset++;
            send(h, big.get(big.size() - 1));
            List<ClosedWindow> second = drain(h);
            assertThat(second).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(2);
                assertThat(w.window().bounds()).as("tiles on").isEqualTo(new WindowBounds(T0 + 56, T0 + 196));
            });
            out.addAll(second);
            frontier(h, "big", T0 + W - 1);
            frontier(h, "small", T0 + W - 1);
            out.addAll(drain(h));
            assertThat(operator(h).overBudget()).isFalse();
        }
        List<ClosedWindow> bigWindows = out.stream().filter(w -> w.queue().equals("big")).toList();
        assertThat(bigWindows).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L);
        for (int i = 1; i < bigWindows.size(); i++) {
            assertThat(bigWindows.get(i).window().tStart()).isEqualTo(bigWindows.get(i - 1).window().tEnd());
        }
        assertThat(bigWindows.get(2).window().tEnd()).isEqualTo(T0 + W);
        List<LogRecord> inWindows = bigWindows.stream().flatMap(w -> KeptRecords.of(w).stream()).toList();
        Set<LogRecord> distinct = new HashSet<>(inWindows);
        assertThat(inWindows).as("exactly once").hasSameSizeAs(distinct)
                .containsExactlyInAnyOrderElementsOf(big.stream().map(QueueRecord::record).toList());
        assertThat(out).filteredOn(w -> w.queue().equals("small")).singleElement()
                .satisfies(w -> assertThat(w.window().bounds()).isEqualTo(new WindowBounds(T0, T0 + W)));
    }

    @Test
    void overTheMemoryBudgetAQueueWithNothingAtOrBelowItsFrontierIsPassedOverUntilItsFrontierMoves()
            throws Exception {
        WindowSettings settings = settings("memory-stuck", 1 << 20, 0).withMemoryBytes(6 * keptWeight("x".repeat(100)));
        String payload = "x".repeat(100);
        try (var h = harness(settings)) {
            h.open();
            start(h, "stuck", "ready");
            send(h, record("ready", "r", 0, T0 + 10, payload));
            send(h, record("ready", "r", 1, T0 + 20, payload));
            frontier(h, "ready", T0 + 30);
            for (int i = 0; i < 5; i++) {
                send(h, record("stuck", "s", i, T0 + 100 + 10 * i, payload));
            }
            assertThat(drain(h)).as("the largest holds nothing at or below its frontier (it has none yet)")
                    .singleElement().satisfies(w -> {
                        assertThat(w.queue()).isEqualTo("ready");
                        assertThat(w.window().bounds()).isEqualTo(new WindowBounds(T0, T0 + 31));
                    });
            send(h, record("stuck", "s", 5, T0 + 150, payload));
            send(h, record("stuck", "s", 6, T0 + 160, payload));
            assertThat(operator(h).overBudget()).isTrue();
            assertThat(drain(h)).as("nothing can close early").isEmpty();
            frontier(h, "stuck", T0 + 150);
            send(h, record("stuck", "s", 7, T0 + 170, payload));
            assertThat(drain(h)).singleElement().satisfies(w -> {
                assertThat(w.queue()).isEqualTo("stuck");
                assertThat(w.window().bounds()).isEqualTo(new WindowBounds(T0, T0 + 151));
                assertThat(KeptRecords.of(w)).extracting(LogRecord::offset).containsExactlyInAnyOrder(0L, 1L, 2L, 3L, 4L, 5L);
            });
            assertThat(operator(h).overBudget()).isFalse();
        }
    }

    @Test
    void underRandomArrivalsFrontiersAndMemoryCutsEveryRecordIsInExactlyOneWindowAndWindowsTile() throws Exception {
        long seed = 20261201L;
        Random random = new Random(seed);
        long hour = 60 * W;
        WindowSettings settings = settings("random", 700, 0).withMemoryBytes(25 * keptWeight("x".repeat(20)));
        List<LogRecord> sent = new ArrayList<>();
        Set<Long> frontiers = new HashSet<>();
        Map<LogRecord, Boolean> open = new java.util.LinkedHashMap<>();
        List<ClosedWindow> out = new ArrayList<>();
        try (var h = harness(settings)) {
            h.open();
            start(h, "orders");
            String[] partitions = {"a", "b", "c"};
            long[] lastTs = new long[partitions.length];
            long[] nextOffset = new long[partitions.length];
            long f = T0 - 1;
            while (f < T0 + 3 * hour) {
                if (random.nextInt(8) == 0) {
                    f += random.nextInt((int) (W / 2));
                    frontier(h, "orders", f);
                    frontiers.add(f);
                } else {
                    int p = random.nextInt(partitions.length);
                    long ts = Math.max(lastTs[p], f + 1) + (random.nextInt(4) == 0 ? random.nextInt((int) (2 * W)) : 0);
                    lastTs[p] = ts;
                    QueueRecord r = record("orders", partitions[p], nextOffset[p]++, ts, "x".repeat(1 + random.nextInt(40)));
                    send(h, r);
                    sent.add(r.record());
                    open.put(r.record(), true);
                }
                for (ClosedWindow w : drain(h)) {
                    out.add(w);
                    KeptRecords.of(w).forEach(open::remove);
                }
                if (random.nextInt(50) == 0) {
                    Map<String, Long> expected = new HashMap<>();
                    for (LogRecord r : open.keySet()) {
                        expected.merge(PartitionSplit.splitId("orders", r.partition(), r.partitionId()), r.offset(),
                                Math::min);
                    }
                    assertThat(operator(h).snapshot("orders").orElseThrow().firstOpenOffsets()).as("seed %d", seed)
                            .isEqualTo(expected);
                }
            }
            frontier(h, "orders", Math.max(f, java.util.Arrays.stream(lastTs).max().orElseThrow()) + 3 * hour);
            out.addAll(drain(h));
        }
        assertThat(out).as("seed %d: windows closed early, at a frontier inside their cell", seed)
                .filteredOn(w -> w.window().tEnd() % W != 0 && frontiers.contains(w.window().tEnd() - 1))
                .hasSizeGreaterThan(20);
        for (int i = 0; i < out.size(); i++) {
            WindowContent w = out.get(i).window();
            assertThat(w.k()).isEqualTo(i + 1L);
            assertThat(Math.floorDiv(w.tStart(), hour)).as("seed %d: k=%d stays in its hour", seed, w.k())
                    .isEqualTo(Math.floorDiv(w.tEnd() - 1, hour));
            for (LogRecord r : KeptRecords.of(w)) {
                assertThat(r.tsMicros()).as("seed %d k=%d", seed, w.k()).isBetween(w.tStart(), w.tEnd() - 1);
            }
            if (i > 0) {
                long previousEnd = out.get(i - 1).window().tEnd();
                assertThat(w.tStart() == previousEnd || (w.tStart() > previousEnd && w.tStart() % hour == 0))
                        .as("seed %d: k=%d starts where k-1 ended or at an hour between", seed, w.k()).isTrue();
            }
        }
        List<LogRecord> inWindows = out.stream().flatMap(w -> KeptRecords.of(w).stream()).toList();
        assertThat(new HashSet<>(inWindows)).as("seed %d: no record twice", seed).hasSameSizeAs(inWindows);
        assertThat(inWindows).as("seed %d: every record once", seed).containsExactlyInAnyOrderElementsOf(sent);
    }

    /** A queue's events as a reader emits them: records per partition in offset order, stamps not going back, frontiers kept. */
    private static List<QueueEvent> randomEvents(Random random, int count) {
        String[] partitions = {"a", "b", "c"};
        long[] lastTs = new long[partitions.length];
        long[] nextOffset = new long[partitions.length];
        long f = T0 - 1;
        List<QueueEvent> events = new ArrayList<>();
        while (events.size() < count) {
            if (random.nextInt(8) == 0) {
                f += random.nextInt((int) (W / 2));
                events.add(new QueueFrontier("orders", f));
            } else {
                int p = random.nextInt(partitions.length);
                long ts = Math.max(lastTs[p], f + 1) + (random.nextInt(4) == 0 ? random.nextInt((int) (2 * W)) : 0);
                lastTs[p] = ts;
                events.add(record("orders", partitions[p], nextOffset[p]++, ts, "x".repeat(1 + random.nextInt(40))));
            }
        }
        events.add(new QueueFrontier("orders", java.util.Arrays.stream(lastTs).max().orElseThrow() + 120 * W));
        return events;
    }

    @Test
    void aRestoreFromACutReReadsOnlyTheOpenRecordsAndEveryRecordEndsInExactlyOneWindow() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            Random random = new Random(seed);
            WindowSettings settings = settings("restore-cut", 700, 0).withMemoryBytes(25 * keptWeight("x".repeat(20)));
            List<QueueEvent> events = randomEvents(random, 3_000);
            int at = 500 + random.nextInt(2_000);
            List<ClosedWindow> windows = new ArrayList<>();
            OpenWindows.Snapshot cut;
            try (var h = harness(settings)) {
                h.open();
                start(h, "orders");
                for (QueueEvent e : events.subList(0, at)) {
                    send(h, e);
                }
                windows.addAll(drain(h));
                cut = operator(h).snapshot("orders").orElseThrow();
                // Windows closed after the checkpoint are forgotten with the failure.
                for (QueueEvent e : events.subList(at, events.size())) {
                    send(h, e);
                }
            }
            try (var h = harness(settings)) {
                h.open();
                send(h, new QueueStart("orders", Optional.of(cut.cut())));
                for (QueueEvent e : events.subList(0, at)) {
                    if (e instanceof QueueRecord r) {
                        Long from = cut.firstOpenOffsets().get(
                                PartitionSplit.splitId("orders", r.record().partition(), r.record().partitionId()));
                        if (from != null && r.record().offset() >= from) {
                            send(h, r);
                        }
                    }
                }
                for (QueueEvent e : events.subList(at, events.size())) {
                    send(h, e);
                }
                windows.addAll(drain(h));
            }
            for (int i = 0; i < windows.size(); i++) {
                assertThat(windows.get(i).k()).as("seed %d", seed).isEqualTo(i + 1L);
                if (i > 0) {
                    long previousEnd = windows.get(i - 1).window().tEnd();
                    long tStart = windows.get(i).window().tStart();
                    assertThat(tStart == previousEnd || (tStart > previousEnd && tStart % (60 * W) == 0))
                            .as("seed %d: k=%d tiles", seed, i + 1).isTrue();
                }
            }
            List<LogRecord> inWindows = windows.stream().flatMap(w -> KeptRecords.of(w).stream()).toList();
            List<LogRecord> sent = events.stream().filter(e -> e instanceof QueueRecord)
                    .map(e -> ((QueueRecord) e).record()).toList();
            assertThat(inWindows).as("seed %d: every record once, across the restore", seed)
                    .containsExactlyInAnyOrderElementsOf(sent);
        }
    }

    @Test
    void theOperatorHoldsNoFlinkState() throws Exception {
        try (var h = harness(settings("stateless", 1 << 20, 0))) {
            h.open();
            start(h, "orders");
            send(h, record("orders", "a", 0, T0 + 1, "open"));
            send(h, record("orders", "a", 1, T0 + W + 1, "open"));
            frontier(h, "orders", T0 + W - 1);
            OperatorSubtaskState snapshot = h.snapshot(1L, 1L);
            assertThat(snapshot.getManagedKeyedState()).isEmpty();
            assertThat(snapshot.getManagedOperatorState()).isEmpty();
            assertThat(snapshot.getRawKeyedState()).isEmpty();
            assertThat(snapshot.getRawOperatorState()).isEmpty();
            assertThat(snapshot.hasState()).isFalse();
        }
    }

    @Test
    void payloadsTheLakeMustRewriteAreCountedAndLoggedWithQueuePartitionAndOffset() throws Exception {
        byte[][] bad = {
            {'"', (byte) 0xC0, (byte) 0x80, '"'},
            {'"', (byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80, '"'},
            {'"', (byte) 0xF8, '"'},
        };
        CapturedLog log = new CapturedLog(LakeWindowOperator.class, org.apache.logging.log4j.Level.WARN);
        try (var h = harness(settings("rewrites", 1 << 20, 0))) {
            h.open();
            start(h, "orders");
            for (int i = 0; i < bad.length; i++) {
                // parsed by a lax parser or not at all: the lake's own check decides
                send(h, new QueueRecord("orders", new LogRecord("p-" + i, "id", 40 + i, "tx", T0 + i, bad[i], i == 0),
                        List.of()));
            }
            send(h, record("orders", "p-9", 7, T0 + 9, "{\"fine\":\"\u00e9\"}"));
            frontier(h, "orders", T0 + W - 1);
            assertThat(drain(h)).hasSize(1);
            assertThat(operator(h).metrics().payloadsRewritten()).isEqualTo(3);
        } finally {
            log.close();
        }
        assertThat(log.lines().stream().filter(l -> l.contains("payload rewritten"))).containsExactly(
                "WARN payload rewritten: queue=orders partition=p-0 offset=40: byte 0xC0 at 1 is not well-formed UTF-8;"
                        + " the lake holds it as a JSON string of its lossy UTF-8",
                "WARN payload rewritten: queue=orders partition=p-1 offset=41: byte 0xED at 1 is not well-formed UTF-8;"
                        + " the lake holds it as a JSON string of its lossy UTF-8",
                "WARN payload rewritten: queue=orders partition=p-2 offset=42: byte 0xF8 at 1 is not well-formed UTF-8;"
                        + " the lake holds it as a JSON string of its lossy UTF-8");
    }

    @Test
    void everyNthWindowCarriesTheResumePositionsOfTheWindowsUpToIt() throws Exception {
        try (var h = harness(settings("positions", 1 << 20, 2))) {
            h.open();
            start(h, "orders");
            send(h, record("orders", "a", 0, T0 + 1, "1"));
            send(h, record("orders", "b", 5, T0 + 2, "1"));
            send(h, record("orders", "a", 1, T0 + W + 1, "1"));
            send(h, record("orders", "a", 2, T0 + 2 * W + 1, "1"));
            send(h, record("orders", "c", 0, T0 + 3 * W + 1, "1"));
            frontier(h, "orders", T0 + 4 * W - 1);
            List<ClosedWindow> out = drain(h);
            assertThat(out).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L, 4L);
            assertThat(out.get(0).checkpoint()).isEmpty();
            assertThat(out.get(2).checkpoint()).isEmpty();
            assertThat(out.get(1).checkpoint()).contains(new CheckpointDoc(2, T0 + 2 * W, List.of(
                    new Position("a", 2, "id-a"), new Position("b", 6, "id-b"))));
            assertThat(out.get(3).checkpoint()).contains(new CheckpointDoc(4, T0 + 4 * W, List.of(
                    new Position("a", 3, "id-a"), new Position("b", 6, "id-b"), new Position("c", 1, "id-c"))));
        }
    }

    @Test
    void theBufferedBytesOfClosedWindowsAreReleased() throws Exception {
        long before = OpenWindowBudget.published();
        try (var h = harness(settings("bounded", 1 << 20, 0))) {
            h.open();
            start(h, "orders");
            for (int window = 0; window < 5; window++) {
                for (int i = 0; i < 20; i++) {
                    send(h, record("orders", "p" + (i % 3), window * 20L + i, T0 + window * W + i, "payload-" + i));
                }
                frontier(h, "orders", T0 + (window + 1) * W - 1);
                assertThat(operator(h).metricsOf("orders").bufferedBytes()).isZero();
                assertThat(operator(h).windowsOf("orders").weight()).isZero();
            }
            send(h, record("orders", "p0", 1000, T0 + 5 * W, "x"));
            assertThat(operator(h).metricsOf("orders").bufferedBytes()).isEqualTo(1);
            assertThat(drain(h)).hasSize(5);
        }
        assertThat(OpenWindowBudget.published()).as("a closed operator gives its share back").isEqualTo(before);
    }
}
