package io.queenlake.source.reader;

import static io.queenlake.source.reader.ReaderRig.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.broker.client.PushItem;
import io.queenlake.source.split.PartitionSplit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A backfill (a long log read from its start) against docs/ARCHITECTURE.md "Windows": what the reader hands
 * out above its watermark, the records a window operator downstream holds open, stays near one
 * window of broker time over all partitions, whatever the length of the log.
 */
class ReaderBackfillTest {

    private static final long GUARD_MS = 20;
    private static final long WINDOW_MS = 1_000;
    private static final int PARTITIONS = 4;
    private static final int WINDOWS = 24;
    private static final int PUSHES_PER_WINDOW = 5;
    private static final int RECORDS_PER_PUSH = 5;
    private static final String PAYLOAD = "\"" + "x".repeat(2_000) + "\"";

    private ReaderRig rig;

    @BeforeEach
    void startRig() throws Exception {
        rig = ReaderRig.start(GUARD_MS, WINDOW_MS);
    }

    @AfterEach
    void closeRig() throws Exception {
        rig.close();
    }

    @Test
    void aBackfillOfManyWindowsHandsOutAboutOneWindowAboveTheWatermarkAtATime() throws Exception {
        // 24 windows of broker time, five pushes a window, each 10 KB per partition: 50 KB per
        // partition and window, 1.2 MB per partition in all, more than one answer of the broker's default size.
        for (int push = 0; push < WINDOWS * PUSHES_PER_WINDOW; push++) {
            List<PushItem> items = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                for (int r = 0; r < RECORDS_PER_PUSH; r++) {
                    items.add(PushItem.of("backfill", "p" + p, "t" + push + "-" + r, PAYLOAD));
                }
            }
            rig.client.push(items);
            rig.skewMicros.addAndGet(WINDOW_MS * 1000 / PUSHES_PER_WINDOW);
        }
        Map<String, String> ids = rig.ids("backfill");
        List<PartitionSplit> splits = new ArrayList<>();
        Map<Long, Long> bytesByWindow = new TreeMap<>();
        long records = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            splits.add(PartitionSplit.atOffset("backfill", "p" + p, ids.get("p" + p), 0, Long.MIN_VALUE));
            for (FetchedRecord r : rig.log("backfill", "p" + p)) {
                bytesByWindow.merge(Math.floorDiv(r.tsMicros(), WINDOW_MS * 1000), (long) r.payload().length, Long::sum);
                records++;
            }
        }
        long largestWindow = bytesByWindow.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long total = bytesByWindow.values().stream().mapToLong(Long::longValue).sum();
        assertThat(bytesByWindow).as("windows of broker time in the log").hasSizeGreaterThanOrEqualTo(WINDOWS);

        rig.assign(ReaderRig.split(splits.toArray(PartitionSplit[]::new)));
        long expected = records;
        rig.pollSlowlyUntil("every record", () -> rig.output.records.size() == expected, seconds(60));

        long peak = rig.output.peakBytesAboveWatermark;
        System.out.printf("backfill of %d windows (%d payload bytes, largest window %d): at most %d bytes (%.2f windows)"
                + " were handed out above the watermark%n", bytesByWindow.size(), total, largestWindow, peak,
                peak / (double) largestWindow);
        for (int p = 0; p < PARTITIONS; p++) {
            int count = rig.log("backfill", "p" + p).size();
            assertThat(rig.offsetsOf("backfill", "p" + p)).as("p%d once each, in offset order", p)
                    .containsExactlyElementsOf(LongStream.range(0, count).boxed().toList());
        }
        assertThat(rig.output.brokenPromises).isEmpty();
        // Above the watermark at once: a split reads on while its last stamp is at most one window
        // above it, one more ask (half a window) past that, and the few milliseconds by which the
        // watermark, recomputed every 10 ms while records stream, trails what was emitted.
        assertThat(peak).as("payload bytes above the watermark: about one window, never the log")
                .isLessThanOrEqualTo(2 * largestWindow);
    }
}
