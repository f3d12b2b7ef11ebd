package io.queenlake.job.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.window.WindowInput;
import io.queenlake.source.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WindowSlicerTest {

    private static final String TENANT = WindowSettings.DEFAULT_TENANT;
    private static final long T0 = 1_791_007_200_000_000L;
    private static final long T1 = T0 + 300_000_000L;

    private static QueueRecord record(String partition, long offset, long ts, int payloadBytes, LostRange... lost) {
        byte[] payload = "x".repeat(payloadBytes).getBytes(StandardCharsets.UTF_8);
        return new QueueRecord("orders", new LogRecord(partition, "id-" + partition, offset, "t", ts, payload),
                List.of(lost));
    }

    @Test
    void aWindowUnderTheTargetIsOneWindowNumberedFirstK() {
        List<QueueRecord> records = List.of(record("a", 0, T0 + 1, 10), record("b", 0, T0 + 2, 10));
        List<WindowInput> windows = WindowSlicer.slice(TENANT, "orders", T0, T1, OpenRecords.of(records), 8, 1_000);
        assertThat(windows).hasSize(1);
        assertThat(windows.get(0).k()).isEqualTo(8);
        assertThat(windows.get(0).tStart()).isEqualTo(T0);
        assertThat(windows.get(0).tEnd()).isEqualTo(T1);
        assertThat(windows.get(0).records()).hasSize(2);
    }

    @Test
    void theSizeCutNumbersSlicesConsecutivelyAndTheyTileTheWindow() {
        List<QueueRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            records.add(record("a", i, T0 + 1_000L * (i + 1), 100));
        }
        List<WindowInput> windows = WindowSlicer.slice(TENANT, "orders", T0, T1, OpenRecords.of(records), 3, 250);
        // 100-byte records, target 250: the running weight reaches 300 after three records, so a cut every three stamps.
        assertThat(windows).extracting(WindowInput::k).containsExactly(3L, 4L, 5L, 6L);
        assertThat(windows).extracting(w -> w.records().size()).containsExactly(3, 3, 3, 1);
        assertThat(windows.get(0).tStart()).isEqualTo(T0);
        for (int i = 1; i < windows.size(); i++) {
            assertThat(windows.get(i).tStart()).isEqualTo(windows.get(i - 1).tEnd());
        }
        assertThat(windows.get(windows.size() - 1).tEnd()).isEqualTo(T1);
    }

    @Test
    void lostRangesLandInTheSliceHoldingTheRecordThatCarriedThemSorted() {
        List<QueueRecord> records = new ArrayList<>();
        records.add(record("a", 5, T0 + 1_000, 100, new LostRange("a", 0, 4)));
        records.add(record("b", 9, T0 + 1_000, 100, new LostRange("b", 7, 8)));
        records.add(record("c", 3, T0 + 3_000, 200));
        records.add(record("é", 3, T0 + 4_000, 100, new LostRange("é", 0, 2)));
        records.add(record("d", 3, T0 + 4_000, 100, new LostRange("d", 1, 2)));
        // Target 150: a+b (one stamp) reach 200, cut at c; c alone reaches 200, cut at d and é.
        List<WindowInput> windows = WindowSlicer.slice(TENANT, "orders", T0, T1, OpenRecords.of(records), 1, 150);
        assertThat(windows).hasSize(3);
        assertThat(windows.get(0).lost()).containsExactly(new LostRange("a", 0, 4), new LostRange("b", 7, 8));
        assertThat(windows.get(1).lost()).isEmpty();
        assertThat(windows.get(2).lost()).containsExactly(new LostRange("d", 1, 2), new LostRange("é", 0, 2));
    }

    @Test
    void arrivalOrderDoesNotChangeTheWindows() {
        long seed = 77L;
        Random random = new Random(seed);
        List<QueueRecord> records = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String partition = "p" + random.nextInt(5);
            records.add(record(partition, i, T0 + random.nextInt(1000) * 1000L, 1 + random.nextInt(50),
                    random.nextInt(20) == 0 ? new LostRange[] {new LostRange(partition, i, i)} : new LostRange[0]));
        }
        List<WindowInput> reference = WindowSlicer.slice(TENANT, "orders", T0, T1, OpenRecords.of(records), 1, 700);
        for (int round = 0; round < 5; round++) {
            List<QueueRecord> shuffled = new ArrayList<>(records);
            Collections.shuffle(shuffled, random);
            List<WindowInput> windows = WindowSlicer.slice(TENANT, "orders", T0, T1, OpenRecords.of(shuffled), 1, 700);
            assertThat(windows).as("seed %d round %d", seed, round).hasSameSizeAs(reference);
            for (int i = 0; i < windows.size(); i++) {
                assertThat(windows.get(i).tStart()).isEqualTo(reference.get(i).tStart());
                assertThat(windows.get(i).tEnd()).isEqualTo(reference.get(i).tEnd());
                assertThat(windows.get(i).records()).containsExactlyInAnyOrderElementsOf(reference.get(i).records());
                assertThat(windows.get(i).lost()).isEqualTo(reference.get(i).lost());
            }
        }
    }
}
