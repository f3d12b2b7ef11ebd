package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.object.Format;
import io.queenlake.format.window.WindowRuns;
import io.queenlake.source.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A closing grid window's runs cut into numbered windows, each with the lost ranges and oldest records it holds. */
class WindowSlicerTest {

    private static final String TENANT = WindowSettings.DEFAULT_TENANT;
    private static final long T0 = 1_791_007_200_000_000L;
    private static final long T1 = T0 + 300_000_000L;

    private static QueueRecord record(String partition, long offset, long ts, int payloadBytes, LostRange... lost) {
        byte[] payload = "x".repeat(payloadBytes).getBytes(StandardCharsets.UTF_8);
        return new QueueRecord("orders", new LogRecord(partition, "id-" + partition, offset, "t", ts, payload),
                List.of(lost));
    }

    /** The records kept as an open window keeps them, in arrival order, then closed. */
    private static ClosingRuns closing(List<QueueRecord> arrived) {
        OpenRuns open = new OpenRuns(new WindowFormats(new Format.Jsonl(Compression.NONE)).own());
        for (QueueRecord r : arrived) {
            open.add(r.record(), r.lostBefore(), rewritten -> {});
        }
        return open.close();
    }

    private static List<WindowRuns> slice(List<QueueRecord> arrived, long firstK, long target) {
        ClosingRuns closing = closing(arrived);
        return WindowSlicer.slice(TENANT, "orders", T0, T1, closing, firstK, WindowSlicer.cutStamps(closing, target))
                .stream().map(WindowSlicer.Sliced::window).toList();
    }

    @Test
    void aWindowUnderTheTargetIsOneWindowNumberedFirstK() {
        List<WindowRuns> windows = slice(List.of(record("a", 0, T0 + 1, 10), record("b", 0, T0 + 2, 10)), 8, 1_000);
        assertThat(windows).hasSize(1);
        assertThat(windows.get(0).k()).isEqualTo(8);
        assertThat(windows.get(0).tStart()).isEqualTo(T0);
        assertThat(windows.get(0).tEnd()).isEqualTo(T1);
        assertThat(windows.get(0).recordCount()).isEqualTo(2);
    }

    @Test
    void theSizeCutNumbersSlicesConsecutivelyAndTheyTileTheWindow() {
        List<QueueRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(record("a", i, T0 + 1_000L * (i + 1), 100));
        }
        List<WindowRuns> windows = slice(records, 3, 250);
        // 100-byte records, target 250: the running weight reaches 300 after three records, so a cut every three stamps.
        assertThat(windows).extracting(WindowRuns::k).containsExactly(3L, 4L, 5L, 6L);
        assertThat(windows).extracting(WindowRuns::recordCount).containsExactly(3, 3, 3, 1);
        assertThat(windows.get(0).tStart()).isEqualTo(T0);
        for (int i = 1; i < windows.size(); i++) {
            assertThat(windows.get(i).tStart()).isEqualTo(windows.get(i - 1).tEnd());
        }
        assertThat(windows.get(windows.size() - 1).tEnd()).isEqualTo(T1);
    }

    @Test
    void lostRangesAndOldestRecordsLandInTheSliceHoldingTheRecordThatCarriedThem() {
        List<QueueRecord> records = new ArrayList<>();
        records.add(record("a", 5, T0 + 1_000, 100, new LostRange("a", 0, 4)));
        records.add(record("b", 9, T0 + 1_000, 100, new LostRange("b", 7, 8)));
        records.add(record("c", 3, T0 + 3_000, 200));
        records.add(record("é", 3, T0 + 4_000, 100, new LostRange("é", 0, 2)));
        records.add(record("d", 3, T0 + 4_000, 100, new LostRange("d", 1, 2)));
        // Target 150: a+b (one stamp) reach 200, cut at c; c alone reaches 200, cut at d and é.
        ClosingRuns closing = closing(records);
        List<WindowSlicer.Sliced> windows = WindowSlicer.slice(TENANT, "orders", T0, T1, closing, 1,
                WindowSlicer.cutStamps(closing, 150));
        assertThat(windows).hasSize(3);
        assertThat(windows.get(0).window().lost()).containsExactly(new LostRange("a", 0, 4), new LostRange("b", 7, 8));
        assertThat(windows.get(1).window().lost()).isEmpty();
        assertThat(windows.get(2).window().lost()).containsExactly(new LostRange("d", 1, 2), new LostRange("é", 0, 2));
        assertThat(windows.get(0).oldest().get("a").get("id-a"))
                .isEqualTo(new OldestOpen.Oldest(5, List.of(new LostRange("a", 0, 4))));
        assertThat(windows.get(1).oldest()).containsOnlyKeys("c");
    }

    @Test
    void arrivalOrderDoesNotChangeTheWindows() {
        long seed = 77L;
        Random random = new Random(seed);
        Map<String, List<QueueRecord>> byPartition = new LinkedHashMap<>();
        long[] stamps = new long[5];
        for (int i = 0; i < 200; i++) {
            int p = random.nextInt(5);
            String partition = "p" + p;
            stamps[p] += random.nextInt(3) == 0 ? 0 : random.nextInt(5_000);
            byPartition.computeIfAbsent(partition, k -> new ArrayList<>()).add(record(partition, i, T0 + stamps[p],
                    1 + random.nextInt(50), random.nextInt(20) == 0 ? new LostRange[] {new LostRange(partition, i, i)}
                            : new LostRange[0]));
        }
        List<WindowRuns> reference = slice(interleave(byPartition, random), 1, 700);
        assertThat(reference.size()).as("the target cuts the window").isGreaterThan(3);
        for (int round = 0; round < 5; round++) {
            List<WindowRuns> windows = slice(interleave(byPartition, random), 1, 700);
            assertThat(windows).as("seed %d round %d", seed, round).hasSameSizeAs(reference);
            for (int i = 0; i < windows.size(); i++) {
                assertThat(windows.get(i).tStart()).isEqualTo(reference.get(i).tStart());
                assertThat(windows.get(i).tEnd()).isEqualTo(reference.get(i).tEnd());
                assertThat(KeptRecords.of(windows.get(i))).containsExactlyInAnyOrderElementsOf(KeptRecords.of(reference.get(i)));
                assertThat(windows.get(i).lost()).isEqualTo(reference.get(i).lost());
            }
        }
    }

    /** Partitions interleaved at random, each partition's records in log order. */
    private static List<QueueRecord> interleave(Map<String, List<QueueRecord>> byPartition, Random random) {
        List<ArrayDeque<QueueRecord>> lanes = new ArrayList<>();
        byPartition.values().forEach(records -> lanes.add(new ArrayDeque<>(records)));
        List<QueueRecord> out = new ArrayList<>();
        while (!lanes.isEmpty()) {
            int i = random.nextInt(lanes.size());
            out.add(lanes.get(i).poll());
            if (lanes.get(i).isEmpty()) {
                lanes.remove(i);
            }
        }
        return out;
    }
}
