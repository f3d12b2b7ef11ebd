package io.queenlake.job.window;

import io.queenlake.broker.kv.SinkKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.RawJson;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.CheckpointDoc.Position;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.WindowBounds;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.window.WindowInput;
import io.queenlake.job.restore.PointerRestore;
import io.queenlake.source.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.runtime.state.StateBackendLoader;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The window operator in Flink's keyed operator harness (heap state, real timers, snapshot and
 * restore), with the dev broker holding the commit pointers.
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

    private static WindowSettings settings(String sink, long targetBytes, int checkpointEvery) {
        return new WindowSettings(WindowSettings.DEFAULT_TENANT, sink, WINDOW_MS, Align.HOUR, targetBytes,
                checkpointEvery, broker.url().toString(), null, Duration.ofSeconds(5));
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, QueueRecord, ClosedWindow> harness(
            WindowSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new LakeWindowOperator(settings), QueueRecord::queue, Types.STRING);
    }

    private static QueueRecord record(String queue, String partition, long offset, long ts, String payload,
            LostRange... lost) {
        return new QueueRecord(queue, new LogRecord(partition, "id-" + partition, offset, "tx-" + offset, ts,
                payload.getBytes(StandardCharsets.UTF_8)), List.of(lost));
    }

    private static void push(KeyedOneInputStreamOperatorTestHarness<String, QueueRecord, ClosedWindow> h,
            QueueRecord r) throws Exception {
        h.processElement(new StreamRecord<>(r, Math.floorDiv(r.record().tsMicros(), 1000L)));
    }

    /** The last Flink millisecond of grid window {@code i} (counted from T0). */
    private static long lastMs(int i) {
        return (T0 + (i + 1) * W) / 1000 - 1;
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
    void recordsOfSeveralWindowsInShuffledArrivalOrderCloseIntoTheSameWindows() throws Exception {
        long seed = 4242L;
        Random random = new Random(seed);
        List<List<ClosedWindow>> runs = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            List<QueueRecord> records = threeWindowsOfRecords();
            Collections.shuffle(records, random);
            try (var h = harness(settings("shuffle", 1 << 20, 0))) {
                h.open();
                for (QueueRecord r : records) {
                    push(h, r);
                }
                h.processWatermark(new Watermark(lastMs(2)));
                runs.add(h.extractOutputValues());
            }
        }
        List<ClosedWindow> first = runs.get(0);
        assertThat(first).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L);
        assertThat(first).extracting(w -> w.window().tStart()).containsExactly(T0, T0 + W, T0 + 2 * W);
        assertThat(first).extracting(w -> w.window().tEnd()).containsExactly(T0 + W, T0 + 2 * W, T0 + 3 * W);
        assertThat(first).extracting(w -> w.window().records().size()).containsExactly(9, 6, 6);
        for (List<ClosedWindow> other : runs.subList(1, runs.size())) {
            assertThat(other).as("seed %d", seed).hasSameSizeAs(first);
            for (int i = 0; i < first.size(); i++) {
                assertThat(other.get(i).window().records())
                        .as("seed %d window %d", seed, i)
                        .containsExactlyInAnyOrderElementsOf(first.get(i).window().records());
                assertThat(other.get(i).k()).isEqualTo(first.get(i).k());
            }
        }
    }

    @Test
    void aWindowClosesExactlyWhenTheWatermarkPassesItsEndMinusOneMillisecond() throws Exception {
        try (var h = harness(settings("exact", 1 << 20, 0))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + W - 1, "1"));
            h.processWatermark(new Watermark(lastMs(0) - 1));
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(new Watermark(lastMs(0)));
            assertThat(h.extractOutputValues()).singleElement()
                    .satisfies(w -> assertThat(w.window().tEnd()).isEqualTo(T0 + W));
        }
    }

    @Test
    void theFinalWatermarkClosesNothingAndTheOpenWindowSurvivesASavepoint() throws Exception {
        WindowSettings settings = settings("drain", 1 << 20, 0);
        OperatorSubtaskState savepoint;
        try (var h = harness(settings)) {
            h.open();
            push(h, record("orders", "a", 0, T0 + 10, "1"));
            push(h, record("orders", "a", 1, T0 + W + 10, "2"));
            h.processWatermark(new Watermark(lastMs(0)));
            assertThat(h.extractOutputValues()).extracting(ClosedWindow::k).containsExactly(1L);
            h.processWatermark(Watermark.MAX_WATERMARK);
            assertThat(h.extractOutputValues()).as("the final watermark closes nothing").hasSize(1);
            assertThat(h.getOutput()).contains(Watermark.MAX_WATERMARK);
            assertThat(h.numEventTimeTimers()).isEqualTo(1);
            savepoint = h.snapshot(1L, 1L);
        }
        try (var h = harness(settings)) {
            h.initializeState(savepoint);
            h.open();
            assertThat(h.numEventTimeTimers()).isEqualTo(1);
            h.processWatermark(new Watermark(lastMs(1)));
            assertThat(h.extractOutputValues()).singleElement().satisfies(w -> {
                assertThat(w.k()).isEqualTo(2L);
                assertThat(w.window().tStart()).isEqualTo(T0 + W);
                assertThat(w.window().records()).extracting(LogRecord::offset).containsExactly(1L);
            });
        }
    }

    @Test
    void payloadsTheLakeMustRewriteAreCountedAndLoggedWithQueuePartitionAndOffset() throws Exception {
        byte[][] bad = {
            {'"', (byte) 0xC0, (byte) 0x80, '"'},
            {'"', (byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80, '"'},
            {'"', (byte) 0xF8, '"'},
        };
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        org.apache.logging.log4j.core.Logger logger = org.apache.logging.log4j.core.LoggerContext.getContext(false)
                .getLogger(LakeWindowOperator.class.getName());
        org.apache.logging.log4j.core.appender.AbstractAppender capture =
                new org.apache.logging.log4j.core.appender.AbstractAppender("rewrites", null, null, true,
                        org.apache.logging.log4j.core.config.Property.EMPTY_ARRAY) {
                    @Override
                    public void append(org.apache.logging.log4j.core.LogEvent event) {
                        lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
                    }
                };
        capture.start();
        org.apache.logging.log4j.Level level = logger.getLevel();
        logger.addAppender(capture); // (re-reads the configuration's level, so the level is set after it)
        logger.setLevel(org.apache.logging.log4j.Level.WARN); // whatever the test log configuration says
        try (var h = harness(settings("rewrites", 1 << 20, 0))) {
            h.open();
            for (int i = 0; i < bad.length; i++) {
                // parsed by a lax parser or not at all: the lake's own check decides
                push(h, new QueueRecord("orders", new LogRecord("p-" + i, "id", 40 + i, "tx", T0 + i, bad[i], i == 0),
                        List.of()));
            }
            push(h, record("orders", "p-9", 7, T0 + 9, "{\"fine\":\"\u00e9\"}"));
            h.processWatermark(new Watermark(lastMs(0)));
            assertThat(h.extractOutputValues()).hasSize(1);
            LakeWindowOperator op = (LakeWindowOperator) h.getOperator();
            assertThat(op.metricsOf("orders").payloadsRewritten()).isEqualTo(3);
        } finally {
            logger.removeAppender(capture);
            logger.setLevel(level);
        }
        assertThat(lines.stream().filter(l -> l.contains("payload rewritten"))).containsExactly(
                "WARN payload rewritten: queue=orders partition=p-0 offset=40: byte 0xC0 at 1 is not well-formed UTF-8;"
                        + " the lake holds it as a JSON string of its lossy UTF-8",
                "WARN payload rewritten: queue=orders partition=p-1 offset=41: byte 0xED at 1 is not well-formed UTF-8;"
                        + " the lake holds it as a JSON string of its lossy UTF-8",
                "WARN payload rewritten: queue=orders partition=p-2 offset=42: byte 0xF8 at 1 is not well-formed UTF-8;"
                        + " the lake holds it as a JSON string of its lossy UTF-8");
    }

    @Test
    void aRecordAtOrBelowTheWatermarkFailsTheJobAndIsCounted() throws Exception {
        try (var h = harness(settings("late", 1 << 20, 0))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + W + 1, "1"));
            h.processWatermark(new Watermark((T0 + 5_000) / 1000));
            QueueRecord late = record("orders", "p-7", 41, T0 + 5_999, "x");
            assertThatThrownBy(() -> push(h, late))
                    .isInstanceOf(LateRecordException.class)
                    .hasMessageContaining("record 41 of partition 'p-7' of queue 'orders'")
                    .hasMessageContaining("watermark " + (T0 + 5_000) / 1000);
            LakeWindowOperator op = (LakeWindowOperator) h.getOperator();
            assertThat(op.metricsOf("orders").lateRecords()).isEqualTo(1);
        }
    }

    @Test
    void windowsTileAcrossEmptyGridCellsAndStartAgainAtTheNextHour() throws Exception {
        try (var h = harness(settings("tile", 1 << 20, 0))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + 3 * W + 10, "1"));
            push(h, record("orders", "a", 1, T0 + 7 * W + 10, "2"));
            long nextHour = T0 + 60 * W;
            push(h, record("orders", "a", 2, nextHour + 2 * W + 10, "3"));
            h.processWatermark(new Watermark((nextHour + 3 * W) / 1000 - 1));
            List<ClosedWindow> out = h.extractOutputValues();
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
            for (int i = 0; i < 7; i++) {
                push(h, record("orders", "a", i, T0 + 1_000L * (i + 1), "x".repeat(100)));
            }
            push(h, record("orders", "a", 7, T0 + W + 1, "y"));
            h.processWatermark(new Watermark(lastMs(1)));
            List<ClosedWindow> out = h.extractOutputValues();
            assertThat(out).extracting(ClosedWindow::k).containsExactly(1L, 2L, 3L, 4L);
            assertThat(out).extracting(w -> w.window().records().size()).containsExactly(3, 3, 1, 1);
            assertThat(out.get(1).window().tStart()).isEqualTo(out.get(0).window().tEnd());
            assertThat(out.get(2).window().tEnd()).isEqualTo(T0 + W);
            assertThat(out.get(3).window().tStart()).isEqualTo(T0 + W);
        }
    }

    @Test
    void aFreshOperatorContinuesFromTheCommitPointerAndDropsRecordsBelowIt() throws Exception {
        long pointerEnd = T0 + W + 30_000_500L;
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys("restore").committed("orders"),
                RawJson.ofUtf8(new Committed(7, pointerEnd, "m", 10, 100, 1).toJson()), KvExpiry.forever())));
        try (var h = harness(settings("restore", 1 << 20, 0))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + 10, "old", new LostRange("a", 0, 0)));
            push(h, record("orders", "a", 1, pointerEnd - 1, "old"));
            push(h, record("orders", "a", 2, pointerEnd, "new"));
            push(h, record("orders", "a", 3, T0 + 2 * W + 7, "new"));
            push(h, record("fresh", "z", 0, T0 + 10, "other queue"));
            h.processWatermark(new Watermark(lastMs(2)));
            List<ClosedWindow> out = h.extractOutputValues();
            assertThat(out).filteredOn(w -> w.queue().equals("orders")).extracting(ClosedWindow::k)
                    .containsExactly(8L, 9L);
            ClosedWindow eighth = out.stream().filter(w -> w.k() == 8).findFirst().orElseThrow();
            assertThat(eighth.window().tStart()).isEqualTo(pointerEnd);
            assertThat(eighth.window().tEnd()).isEqualTo(T0 + 2 * W);
            assertThat(eighth.window().records()).extracting(LogRecord::offset).containsExactly(2L);
            assertThat(eighth.window().lost()).as("a lost range riding on a dropped record was committed before").isEmpty();
            assertThat(out).filteredOn(w -> w.queue().equals("fresh")).extracting(ClosedWindow::k).containsExactly(1L);
            // A re-read record below the pointer is dropped on arrival, even below the watermark: never late.
            push(h, record("orders", "a", 0, T0 + 10, "old"));
            LakeWindowOperator op = (LakeWindowOperator) h.getOperator();
            assertThat(op.metricsOf("orders").recordsBelowPointer()).isEqualTo(3);
            assertThat(h.extractOutputValues()).hasSize(3);
        }
    }

    @Test
    void anOpenIntentClosesFirstWithItsOwnBoundsAndFormatWhateverTheSettingsAndSurvivesASnapshot() throws Exception {
        // Window 8 was written with 30 s windows before the crash: its intent says [T0 + W, T0 + W + 30 s).
        long pointerEnd = T0 + W;
        long intentEnd = T0 + W + 30_000_000L;
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys("redo").committed("orders"),
                RawJson.ofUtf8(new Committed(7, pointerEnd, "m", 10, 100, 1).toJson()), KvExpiry.forever())));
        Intent intent = new Intent(8, pointerEnd, intentEnd, "jsonl", "gzip", Layout.PER_PARTITION,
                "queen-lake/0.1.0 jsonl+gzip");
        new Intents(client, "redo").write("orders", ObservedIntent.absent(), intent);
        OperatorSubtaskState snapshot;
        try (var h = harness(settings("redo", 1, 0))) {
            h.open();
            push(h, record("orders", "a", 0, pointerEnd - 1, "committed before"));
            push(h, record("orders", "a", 1, pointerEnd, "redo"));
            push(h, record("orders", "b", 0, intentEnd - 1, "redo"));
            push(h, record("orders", "a", 2, intentEnd, "own grid"));
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(settings("redo", 1, 0))) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            push(h, record("orders", "b", 1, intentEnd + 5, "own grid"));
            h.processWatermark(new Watermark(lastMs(1)));
            List<ClosedWindow> out = h.extractOutputValues();
            assertThat(out).extracting(ClosedWindow::k).containsExactly(8L, 9L, 10L);
            ClosedWindow redo = out.get(0);
            assertThat(redo.window().bounds()).isEqualTo(new WindowBounds(pointerEnd, intentEnd));
            assertThat(redo.window().records()).as("never size-cut, though the target is 1 byte")
                    .extracting(LogRecord::offset).containsExactlyInAnyOrder(1L, 0L);
            assertThat(redo.redo()).contains(intent);
            // After it, this job's own 60 s grid, tiled from the intent's end and size-cut by its own target.
            assertThat(out.get(1).window().tStart()).isEqualTo(intentEnd);
            assertThat(out.get(2).window().tEnd()).isEqualTo(T0 + 2 * W);
            assertThat(out.subList(1, 3)).allSatisfy(w -> assertThat(w.redo()).isEmpty());
        }
    }

    @Test
    void everyNthWindowCarriesTheResumePositionsOfTheWindowsUpToIt() throws Exception {
        try (var h = harness(settings("positions", 1 << 20, 2))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + 1, "1"));
            push(h, record("orders", "b", 5, T0 + 2, "1"));
            push(h, record("orders", "a", 1, T0 + W + 1, "1"));
            push(h, record("orders", "a", 2, T0 + 2 * W + 1, "1"));
            push(h, record("orders", "c", 0, T0 + 3 * W + 1, "1"));
            h.processWatermark(new Watermark(lastMs(3)));
            List<ClosedWindow> out = h.extractOutputValues();
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
    void theStateOfClosedWindowsIsCleared() throws Exception {
        try (var h = harness(settings("bounded", 1 << 20, 0))) {
            h.open();
            for (int window = 0; window < 5; window++) {
                for (int i = 0; i < 20; i++) {
                    push(h, record("orders", "p" + (i % 3), window * 20L + i, T0 + window * W + i, "payload-" + i));
                }
                h.processWatermark(new Watermark(lastMs(window)));
                // After each close only the per-queue bookkeeping is left: k, the pointer read, positions.
                assertThat(h.numEventTimeTimers()).isZero();
                assertThat(((LakeWindowOperator) h.getOperator()).metricsOf("orders").bufferedBytes()).isZero();
            }
            int afterFive = h.numKeyedStateEntries();
            push(h, record("orders", "p0", 1000, T0 + 5 * W, "x"));
            assertThat(((LakeWindowOperator) h.getOperator()).metricsOf("orders").bufferedBytes()).isEqualTo(1);
            h.processWatermark(new Watermark(lastMs(5)));
            assertThat(h.numKeyedStateEntries()).isEqualTo(afterFive);
            assertThat(h.extractOutputValues()).hasSize(6);
        }
    }

    @Test
    void onRocksDbWindowsCloseIntoTheSameWindowsAcrossASnapshot() throws Exception {
        List<QueueRecord> records = threeWindowsOfRecords();
        List<ClosedWindow> onHeap;
        try (var h = harness(settings("rocks-heap", 1 << 20, 2))) {
            h.open();
            for (QueueRecord r : records) {
                push(h, r);
            }
            h.processWatermark(new Watermark(lastMs(2)));
            onHeap = h.extractOutputValues();
        }
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, StateBackendLoader.ROCKSDB_STATE_BACKEND_NAME);
        StateBackend rocksDb = StateBackendLoader.loadStateBackendFromConfig(conf, getClass().getClassLoader(), null);
        List<ClosedWindow> onRocksDb = new ArrayList<>();
        OperatorSubtaskState snapshot;
        try (var h = harness(settings("rocks", 1 << 20, 2))) {
            h.setStateBackend(rocksDb);
            h.open();
            for (QueueRecord r : records) {
                push(h, r);
            }
            h.processWatermark(new Watermark(lastMs(0)));
            onRocksDb.addAll(h.extractOutputValues());
            snapshot = h.snapshot(1L, 1L);
        }
        try (var h = harness(settings("rocks", 1 << 20, 2))) {
            h.setStateBackend(rocksDb);
            h.initializeState(snapshot);
            h.open();
            h.processWatermark(new Watermark(lastMs(2)));
            onRocksDb.addAll(h.extractOutputValues());
        }
        assertThat(onRocksDb).hasSameSizeAs(onHeap);
        for (int i = 0; i < onHeap.size(); i++) {
            assertThat(onRocksDb.get(i).k()).isEqualTo(onHeap.get(i).k());
            assertThat(onRocksDb.get(i).window().records())
                    .containsExactlyInAnyOrderElementsOf(onHeap.get(i).window().records());
            assertThat(onRocksDb.get(i).checkpoint()).isEqualTo(onHeap.get(i).checkpoint());
        }
        assertThat(onRocksDb.get(1).checkpoint()).isPresent();
    }

    @Test
    void openWindowsRestoreTheirBufferedBytesGauge() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(settings("gauge", 1 << 20, 0))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + 1, "12345"));
            snapshot = h.snapshot(1L, 1L);
        }
        try (var h = harness(settings("gauge", 1 << 20, 0))) {
            h.initializeState(snapshot);
            h.open();
            assertThat(((LakeWindowOperator) h.getOperator()).metricsOf("orders").bufferedBytes()).isEqualTo(5);
        }
    }

    @Test
    void windowsOfTwoQueuesAreNumberedApart() throws Exception {
        try (var h = harness(settings("two", 1 << 20, 0))) {
            h.open();
            push(h, record("orders", "a", 0, T0 + 1, "1"));
            push(h, record("payments", "a", 0, T0 + 1, "1"));
            push(h, record("payments", "a", 1, T0 + W + 1, "1"));
            h.processWatermark(new Watermark(lastMs(1)));
            List<ClosedWindow> out = h.extractOutputValues();
            assertThat(out).filteredOn(w -> w.queue().equals("orders")).extracting(ClosedWindow::k).containsExactly(1L);
            assertThat(out).filteredOn(w -> w.queue().equals("payments")).extracting(ClosedWindow::k)
                    .containsExactly(1L, 2L);
            assertThat(out).extracting(ClosedWindow::window).extracting(WindowInput::tenant)
                    .containsOnly(WindowSettings.DEFAULT_TENANT);
            assertThat(out).extracting(ClosedWindow::checkpoint).containsOnly(Optional.empty());
        }
    }
}
