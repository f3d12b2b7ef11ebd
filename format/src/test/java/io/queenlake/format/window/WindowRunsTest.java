package io.queenlake.format.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.run.RecordEncoding;
import io.queenlake.format.run.RecordRun;
import io.queenlake.format.run.RunSlice;
import io.queenlake.format.testutils.Arrivals;
import io.queenlake.format.testutils.DeterminismProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A window kept as runs while it was open (each record encoded as it arrived) encodes into the very
 * objects and manifest the same records give as a list, in every format and layout: encoding while
 * reading changes when the work is done, never a byte of the lake.
 */
class WindowRunsTest {

    static Stream<Arguments> settings() {
        return DeterminismProbe.SETTINGS.stream()
                .flatMap(s -> Stream.of(Layout.MERGED, Layout.PER_PARTITION)
                        .map(l -> Arguments.of(new WriterSettings(s.format(), l, Align.HOUR, s.targetBytes()))));
    }

    /** What an open window keeps: one run per partition incarnation, records appended as they arrive. */
    static List<RunSlice> runsOf(List<LogRecord> arrived, RecordEncoding encoding) {
        Map<String, RecordRun> runs = new LinkedHashMap<>();
        for (LogRecord r : arrived) {
            encoding.append(r, runs.computeIfAbsent(r.partition() + "\u0000" + r.partitionId(),
                    k -> encoding.newRun(r.partition(), r.partitionId())));
        }
        return runs.values().stream().map(RecordRun::all).toList();
    }

    static WindowRuns asRuns(WindowInput w, List<LogRecord> arrived, RecordEncoding encoding) {
        return new WindowRuns(w.tenant(), w.queue(), w.k(), w.tStart(), w.tEnd(), runsOf(arrived, encoding), w.lost());
    }

    private static void assertSameWindow(EncodedWindow runs, EncodedWindow records, String what) {
        assertThat(runs.manifest()).as(what).isEqualTo(records.manifest());
        assertThat(runs.objects()).as(what).hasSameSizeAs(records.objects());
        for (int i = 0; i < records.objects().size(); i++) {
            assertThat(runs.objects().get(i).body()).as("%s, object %d", what, i).isEqualTo(records.objects().get(i).body());
        }
    }

    @ParameterizedTest
    @MethodSource("settings")
    void runsKeptInAnyArrivalOrderGiveTheSameObjectsAsTheRecords(WriterSettings settings) throws IOException {
        WindowEncoder encoder = new WindowEncoder(settings, Prefix.DEFAULT, "default");
        List<LogRecord> records = DeterminismProbe.records();
        WindowInput window = DeterminismProbe.window(records);
        EncodedWindow baseline = encoder.encode(window);
        for (long seed = 1; seed <= 5; seed++) {
            List<LogRecord> arrived = Arrivals.interleave(records, new Random(seed));
            assertSameWindow(encoder.encode(asRuns(window, arrived, encoder.recordEncoding())), baseline,
                    "seed " + seed + ", " + settings.describe());
        }
    }

    @Test
    void aWindowOfManyCompressorChunksAndTwoIncarnationsOfOneNameIsTheSame() throws IOException {
        Random random = new Random(11);
        List<LogRecord> records = new ArrayList<>();
        long t0 = DeterminismProbe.T0;
        for (String[] incarnation : new String[][] {{"p", "new"}, {"p", "old"}, {"q", "q1"}, {"solo", "s1"}}) {
            boolean older = incarnation[1].equals("old");
            long ts = t0 + (older ? 0 : 1_000_000_000L);
            int count = incarnation[0].equals("solo") ? 1 : 3_000;
            for (int o = 0; o < count; o++) {
                byte[] payload = ("{\"v\":\"" + "z".repeat(random.nextInt(400)) + "\",\"n\":" + random.nextLong() + "}")
                        .getBytes(StandardCharsets.UTF_8);
                records.add(new LogRecord(incarnation[0], incarnation[1], o, o % 7 == 0 ? "" : "t\u00e9" + o, ts, payload,
                        o % 2 == 0));
                ts += random.nextInt(4) == 0 ? 0 : random.nextInt(100_000);
            }
        }
        WindowInput window = new WindowInput("t", "orders", 3, t0, t0 + 3_600_000_000L, records, List.of());
        for (Format format : List.of(new Format.Jsonl(Compression.ZSTD), new Format.Jsonl(Compression.GZIP),
                new Format.Jsonl(Compression.NONE), Format.named("parquet"))) {
            for (Layout layout : Layout.values()) {
                WindowEncoder encoder = new WindowEncoder(new WriterSettings(format, layout, Align.HOUR,
                        WriterSettings.DEFAULT_TARGET_BYTES), Prefix.DEFAULT, "default");
                List<LogRecord> arrived = Arrivals.interleave(records, new Random(3));
                assertSameWindow(encoder.encode(asRuns(window, arrived, encoder.recordEncoding())),
                        encoder.encode(window), format + " " + layout);
            }
        }
    }

    @Test
    void theSizeCutOverRunsCutsAtTheStampsTheRecordsAreCutAt() {
        Random random = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            List<LogRecord> records = new ArrayList<>();
            int partitions = 1 + random.nextInt(trial % 2 == 0 ? 6 : 40); // a deeper merge every other trial
            for (int p = 0; p < partitions; p++) {
                long ts = 1_000 + random.nextInt(50);
                for (int o = 0; o < random.nextInt(60); o++) {
                    records.add(new LogRecord("p" + p, "id", o, "", ts, new byte[random.nextInt(3) == 0 ? 0 : random.nextInt(90)]));
                    ts += random.nextInt(3) == 0 ? 0 : random.nextInt(20);
                }
            }
            if (records.isEmpty()) {
                continue;
            }
            long target = 1 + random.nextInt(800);
            List<RunSlice> runs = runsOf(records, new WindowEncoder(DeterminismProbe.SETTINGS.get(0), Prefix.DEFAULT,
                    "default").recordEncoding());
            assertThat(SizeCut.cutStamps(runs, target)).as("trial %d, target %d", trial, target)
                    .isEqualTo(SizeCut.cutStamps(records, target));
        }
    }

    @Test
    void aRunTakesEachRecordOnceInLogOrderAndNothingAfterItWasSliced() {
        RecordRun run = new RecordRun("p", "id", "test");
        byte[] bytes = "abc".getBytes(StandardCharsets.US_ASCII);
        run.add(5, 100, 3, bytes, 0, 3);
        assertThatThrownBy(() -> run.add(5, 100, 3, bytes, 0, 3)).hasMessageContaining("once each, in log order");
        assertThatThrownBy(() -> run.add(6, 99, 3, bytes, 0, 3)).hasMessageContaining("in log order");
        run.add(6, 100, 3, bytes, 0, 2);
        run.add(7, 250, 1, bytes, 1, 2);

        RecordRun staying = run.tail(run.countAtOrBelow(100));
        RunSlice closing = run.slice(0, run.countAtOrBelow(100));

        assertThat(closing.size()).isEqualTo(2);
        assertThat(closing.bytes()).isEqualTo(5);
        assertThat(staying.size()).isEqualTo(1);
        assertThat(staying.offset(0)).isEqualTo(7);
        byte[] read = new byte[2];
        staying.all().read(0, read, 0);
        assertThat(new String(read, StandardCharsets.US_ASCII)).isEqualTo("bc");
        assertThatThrownBy(() -> run.add(8, 300, 1, bytes, 0, 1)).hasMessageContaining("was sliced");
    }

    @Test
    void aRunKeptForOneFormatIsRefusedByAnother() {
        WindowEncoder jsonl = new WindowEncoder(DeterminismProbe.SETTINGS.get(0), Prefix.DEFAULT, "default");
        WindowEncoder parquet = new WindowEncoder(new WriterSettings(Format.named("parquet"), Layout.MERGED, Align.HOUR,
                WriterSettings.DEFAULT_TARGET_BYTES), Prefix.DEFAULT, "default");
        List<LogRecord> records = DeterminismProbe.records();
        WindowRuns kept = asRuns(DeterminismProbe.window(records), records, jsonl.recordEncoding());

        assertThatThrownBy(() -> parquet.encode(kept)).hasMessageContaining("were kept as jsonl-lines");
    }
}
