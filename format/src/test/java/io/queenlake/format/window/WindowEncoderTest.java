package io.queenlake.format.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.DataKey;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.format.object.Format;
import io.queenlake.format.testutils.Decoded;
import io.queenlake.format.testutils.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowEncoderTest {

    private static final String TENANT = "00000000-0000-0000-0000-000000000001";
    /** 2026-09-04T10:00:00Z .. 10:05. */
    private static final long T10 = 1_788_516_000_000_000L;
    private static final long T1005 = 1_788_516_300_000_000L;

    private static LogRecord rec(String partition, long offset, long ts, String payload) {
        return new LogRecord(partition, "", offset, "", ts, payload.getBytes(StandardCharsets.UTF_8));
    }

    private static final List<LogRecord> ARRIVED = List.of(
            rec("b", 3, T10 + 30, "{}"), rec("a", 0, T10 + 10, "1"), rec("b", 4, T10 + 40, "[]"), rec("a", 1, T10 + 20, ""));

    private static WindowInput window(List<LostRange> lost) {
        return new WindowInput(TENANT, "orders", 7, T10, T1005, ARRIVED, lost);
    }

    @Test
    void aMergedWindowIsOneObjectWithItsManifestMinusCommittedAt() throws IOException {
        WindowEncoder encoder = new WindowEncoder(new WriterSettings(new Format.Jsonl(Compression.NONE), Layout.MERGED,
                Align.HOUR, 1000), Prefix.DEFAULT, "default");
        EncodedWindow w = encoder.encode(window(List.of(new LostRange("a", 5, 6))));

        assertThat(w.objects()).hasSize(1);
        EncodedObject o = w.objects().get(0);
        assertThat(o.key()).isEqualTo("queen/tenant=" + TENANT + "/queue=orders/dt=2026-09-04/hour=10/"
                + "w-0000000007-1788516000000000-1788516300000000.jsonl");
        assertThat(o.sha256()).isEqualTo(Sha256.hex(o.body()));
        assertThat(o.entry().bytes()).isEqualTo(o.body().length);
        assertThat(o.entry().records()).isEqualTo(4);
        assertThat(new String(o.body(), StandardCharsets.UTF_8).lines().map(l -> l.substring(0, 28)))
                .containsExactly("{\"partition\":\"a\",\"offset\":0,", "{\"partition\":\"a\",\"offset\":1,",
                        "{\"partition\":\"b\",\"offset\":3,", "{\"partition\":\"b\",\"offset\":4,");

        Manifest m = w.manifest();
        assertThat(m.sink()).isEqualTo("default");
        assertThat(m.k()).isEqualTo(7);
        assertThat(m.tStart()).isEqualTo(T10);
        assertThat(m.tEnd()).isEqualTo(T1005);
        assertThat(m.format()).isEqualTo("jsonl");
        assertThat(m.compression()).isEqualTo("none");
        assertThat(m.layout()).isEqualTo(Layout.MERGED);
        assertThat(m.objects()).containsExactly(o.entry());
        assertThat(m.records()).isEqualTo(4);
        assertThat(m.bytes()).isEqualTo(o.body().length);
        assertThat(m.partitions()).isEqualTo(2);
        assertThat(m.minTs()).isEqualTo(T10 + 10);
        assertThat(m.maxTs()).isEqualTo(T10 + 40);
        assertThat(m.lost()).containsExactly(new LostRange("a", 5, 6));
        assertThat(m.positions()).as("where each partition continues after this window").containsExactly(
                new CheckpointDoc.Position("a", 2, ""), new CheckpointDoc.Position("b", 5, ""));
        assertThat(m.writer()).isEqualTo("queen-lake/0.1.0 jsonl");
        assertThat(m.isStamped()).isFalse();
    }

    @Test
    void aPerPartitionWindowIsOneObjectPerPartitionWithItsOffsets() throws IOException {
        WindowEncoder encoder = new WindowEncoder(new WriterSettings(new Format.Jsonl(Compression.ZSTD),
                Layout.PER_PARTITION, Align.HOUR, 1000), Prefix.DEFAULT, "s");
        EncodedWindow w = encoder.encode(window(List.of()));

        assertThat(w.objects()).extracting(o -> o.entry().slice()).containsExactly(
                new DataKey.PartitionSlice("a", 0, 1), new DataKey.PartitionSlice("b", 3, 4));
        assertThat(w.objects().get(1).key()).endsWith(
                "/w-0000000007-1788516000000000-1788516300000000-p-b-000000000003-000000000004.jsonl.zst");
        String lines = new String(Decoded.jsonl("jsonl.zst", w.objects().get(1).body()), StandardCharsets.UTF_8);
        assertThat(lines.lines()).hasSize(2).allMatch(l -> l.startsWith("{\"partition\":\"b\""));
        assertThat(w.manifest().bytes()).isEqualTo(w.objects().get(0).body().length + w.objects().get(1).body().length);
        assertThat(w.manifest().records()).isEqualTo(4);
        assertThat(w.manifest().layout()).isEqualTo(Layout.PER_PARTITION);
    }

    @Test
    void dayAlignedKeysHaveNoHourDirectory() throws IOException {
        WindowEncoder encoder = new WindowEncoder(new WriterSettings(new Format.Jsonl(Compression.GZIP), Layout.MERGED,
                Align.DAY, 1000), Prefix.of("lake"), "s");
        assertThat(encoder.encode(window(List.of())).objects().get(0).key()).isEqualTo("lake/tenant=" + TENANT
                + "/queue=orders/dt=2026-09-04/w-0000000007-1788516000000000-1788516300000000.jsonl.gz");
    }

    @Test
    void emptyWindowsAndStrayRecordsAreRefused() {
        assertThatThrownBy(() -> new WindowInput(TENANT, "orders", 1, T10, T1005, List.of(), List.of()))
                .hasMessage("window 1 of queue 'orders' has no record: empty windows are never written");
        assertThatThrownBy(() -> new WindowInput(TENANT, "orders", 1, T10, T1005,
                        List.of(rec("a", 0, T1005, "1")), List.of()))
                .hasMessageContaining("lies outside window 1");
        assertThatThrownBy(() -> new WindowInput(TENANT, "orders", 0, T10, T1005, ARRIVED, List.of()))
                .hasMessageContaining("start at 1");
    }

    @Test
    void settingsValidateAndDescribeTheWriter() {
        assertThat(WriterSettings.defaults().describe()).isEqualTo("queen-lake/0.1.0 jsonl+zstd");
        assertThat(new WriterSettings(Format.of("ndjson", "gz"), Layout.MERGED, Align.HOUR, 1).describe())
                .isEqualTo("queen-lake/0.1.0 jsonl+gzip");
        assertThatThrownBy(() -> new WriterSettings(null, Layout.MERGED, Align.HOUR, 1)).hasMessage("format");
        assertThatThrownBy(() -> new WriterSettings(new Format.Jsonl(Compression.NONE), Layout.MERGED, Align.HOUR, 0))
                .hasMessageContaining("at least 1 byte");
    }
}
