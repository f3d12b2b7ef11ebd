package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.object.Format;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.split.PartitionSplit;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With the sink writer chained behind them, a closed window counts as closed for the checkpoint
 * only once the writer handed it on: until then the cut stays before it and its records are read
 * again on a restore, so the writer neither waits for its staging at the barrier nor keeps it in
 * Flink state.
 */
class WindowHandoverTest {

    private static final long SECOND = 1_000_000L;
    private static final long T = 1_796_155_200_000_000L; // an hour boundary
    private final WindowHandover handover = WindowHandover.registerForThisTask();
    private final List<ClosedWindow> closed = new ArrayList<>();
    private final QueueWindows windows = new QueueWindows("q",
            new StartPoint(0, Long.MIN_VALUE, Long.MIN_VALUE, List.of(), Optional.empty(), true),
            new WindowSettings(WindowSettings.DEFAULT_TENANT, "default", 1_000, Align.HOUR, 1 << 20, 0,
                    "http://127.0.0.1:1", null, Duration.ofSeconds(5)),
            new WindowFormats(new Format.Jsonl(Compression.ZSTD)),
            new WindowMetrics(UnregisteredMetricsGroup.createOperatorMetricGroup()).of("q"),
            OpenWindowBudget.account(1L << 30), WindowHandover.observeForThisTask());

    @AfterEach
    void unregister() {
        WindowHandover.unregister(handover);
    }

    private static QueueRecord record(long offset, long ts, LostRange... lost) {
        return new QueueRecord("q", new LogRecord("p", "id-p", offset, "tx-" + offset, ts,
                "{}".getBytes(StandardCharsets.UTF_8)), List.of(lost));
    }

    @Test
    void theCutStaysBeforeTheFirstWindowTheWriterHasNotHandedOn() {
        LostRange gap = new LostRange("p", 1, 1);
        windows.add(record(0, T + 100));
        windows.add(record(2, T + SECOND + 100, gap));
        windows.add(record(3, T + 2 * SECOND + 100));
        windows.advance(T + 2 * SECOND - 1, closed::add); // windows 1 and 2 close; the record at offset 3 stays open
        assertThat(closed).extracting(ClosedWindow::k).containsExactly(1L, 2L);
        String p = PartitionSplit.splitId("q", "p", "id-p");

        OpenWindows.Snapshot nothingHanded = windows.snapshot();
        assertThat(nothingHanded.cut().k()).isZero();
        assertThat(nothingHanded.cut().lastEnd()).isEqualTo(Long.MIN_VALUE);
        assertThat(nothingHanded.firstOpenOffsets()).containsEntry(p, 0L);
        assertThat(windows.closedThrough()).isEqualTo(Long.MIN_VALUE);

        handover.handedOn("q", 1);
        OpenWindows.Snapshot oneHanded = windows.snapshot();
        assertThat(oneHanded.cut().k()).isEqualTo(1);
        assertThat(oneHanded.cut().lastEnd()).isEqualTo(T + SECOND);
        assertThat(oneHanded.cut().closedPositions()).singleElement().satisfies(pos -> assertThat(pos.offset()).isEqualTo(1));
        assertThat(oneHanded.firstOpenOffsets()).as("window 2 is read again from its first record").containsEntry(p, 2L);
        assertThat(oneHanded.cut().pendingLost()).as("the gap before it rides on it again").containsExactly(gap);

        handover.handedOn("q", 2);
        OpenWindows.Snapshot bothHanded = windows.snapshot();
        assertThat(bothHanded.cut().k()).isEqualTo(2);
        assertThat(bothHanded.cut().lastEnd()).isEqualTo(T + 2 * SECOND);
        assertThat(bothHanded.firstOpenOffsets()).as("only the open record").containsEntry(p, 3L);
        assertThat(bothHanded.cut().pendingLost()).isEmpty();
    }
}
