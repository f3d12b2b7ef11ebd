package io.queenlake.connector.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.window.EncodedObject;
import io.queenlake.format.window.EncodedWindow;
import io.queenlake.format.window.WindowEncoder;
import io.queenlake.format.window.WindowInput;
import io.queenlake.format.window.WriterSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The lake checker accepts a correct lake in every format and names each kind of damage. */
class LakeCheckerTest {

    private static final TestWindows WORLD = new TestWindows(List.of("orders"), 3, 7);
    private static final String QUEUE = "orders";
    private static final SidecarKeys SIDECARS = new SidecarKeys(Prefix.DEFAULT, WORLD.tenant(), QUEUE);

    static Stream<WriterSettings> formats() {
        return Stream.of(
                new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED, Align.HOUR, 1 << 20),
                new WriterSettings(new Format.Jsonl(Compression.GZIP), Layout.PER_PARTITION, Align.DAY, 1 << 20),
                new WriterSettings(new Format.Jsonl(Compression.NONE), Layout.MERGED, Align.NONE, 1 << 20),
                new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.MERGED, Align.HOUR, 1 << 20),
                new WriterSettings(new Format.Parquet(ParquetCodec.SNAPPY), Layout.PER_PARTITION, Align.HOUR, 1 << 20));
    }

    @ParameterizedTest
    @MethodSource("formats")
    void aCorrectLakePassesInEveryFormat(WriterSettings settings) throws IOException {
        MemoryLake lake = lakeOf(settings);

        LakeReport report = check(lake, WORLD.expectedRecords(QUEUE));

        assertThat(report.problems()).as("%s", report).isEmpty();
        assertThat(report.recordsRead()).isEqualTo(21);
    }

    @ParameterizedTest
    @MethodSource("formats")
    void aRewrittenPayloadIsNamedAsSuchNotPassedSilently(WriterSettings settings) throws IOException {
        byte[][] bad = {
            {'"', (byte) 0xC0, (byte) 0x80, '"'},
            {'"', (byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80, '"'},
            {'"', (byte) 0xF5, '"'},
        };
        List<LogRecord> records = new ArrayList<>();
        for (int i = 0; i < bad.length; i++) {
            records.add(new LogRecord("p", "id-p", i, "tx-" + i, TestWindows.BASE_MICROS + i, bad[i]));
        }
        records.add(new LogRecord("p", "id-p", bad.length, "tx-n", TestWindows.BASE_MICROS + 9, "null".getBytes()));
        MemoryLake lake = new MemoryLake();
        EncodedWindow encoded = new WindowEncoder(settings, Prefix.DEFAULT, "default").encode(new WindowInput(
                WORLD.tenant(), QUEUE, 1, TestWindows.BASE_MICROS, TestWindows.BASE_MICROS + TestWindows.WINDOW_MICROS,
                records, List.of()));
        for (EncodedObject o : encoded.objects()) {
            lake.files.put(o.key(), o.body());
        }
        lake.files.put(SIDECARS.manifest(1), ManifestJson.write(encoded.manifest().withCommittedAt(1_000L)));

        io.queenlake.connector.verify.LakeReport report = new io.queenlake.connector.verify.LakeChecker(lake, Prefix.DEFAULT)
                .check(WORLD.tenant(), QUEUE, 1, records);

        assertThat(report.rewritten()).containsExactly("p@0", "p@1", "p@2");
        assertThat(report.problems()).hasSize(3).allMatch(p -> p.contains("payload rewritten")
                && p.contains("is not well-formed UTF-8") && p.contains("\ufffd"));
        assertThat(report.summary()).contains("3 payloads rewritten");
    }

    static Stream<Arguments> damage() {
        return Stream.of(
                Arguments.of("a pushed record missing from the lake", (Damage) (lake, expected) -> expected.add(
                        new LogRecord("p9", "id-9", 0, "tx", TestWindows.BASE_MICROS + 5, "{}".getBytes())), "is in no object"),
                Arguments.of("a record in the lake that was never pushed", (Damage) (lake, expected) -> expected.remove(0),
                        "was never pushed"),
                Arguments.of("a payload that differs from the pushed one", (Damage) (lake, expected) -> {
                    LogRecord r = expected.remove(0);
                    expected.add(0, new LogRecord(r.partition(), r.partitionId(), r.offset(), r.transactionId(),
                            r.tsMicros(), "{\"other\":1}".getBytes()));
                }, "has payload"),
                Arguments.of("an object whose bytes changed", (Damage) (lake, expected) -> lake.flipLastByte(
                        firstObject(lake, 2)), "sha256"),
                Arguments.of("a gap in the manifests", (Damage) (lake, expected) -> lake.files.remove(SIDECARS.manifest(2)),
                        "manifest " + SIDECARS.manifest(2) + " of committed window 2 is missing"),
                Arguments.of("an orphan object under the data prefix", (Damage) (lake, expected) -> lake.files.put(
                        firstObject(lake, 1).replace("w-0000000001", "w-0000000009"), new byte[] {1}), "an orphan"),
                Arguments.of("a record in two objects", (Damage) (lake, expected) -> lake.rewriteManifest(2, m ->
                        withObjects(m, concat(m, lake.manifest(1)))), "and again in"),
                Arguments.of("overlapping windows", (Damage) (lake, expected) -> lake.rewriteManifest(2, m ->
                        shifted(m, -1)), "windows overlap"),
                Arguments.of("a gap between windows", (Damage) (lake, expected) -> lake.rewriteManifest(2, m ->
                        shifted(m, 1)), "windows must tile"),
                Arguments.of("resume positions one past the window's records", (Damage) (lake, expected) ->
                        lake.rewriteManifest(2, LakeCheckerTest::positionsOnePast), "continue at"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damage")
    void theCheckerNamesEachKindOfDamage(String what, Damage damage, String named) throws IOException {
        MemoryLake lake = lakeOf(new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED, Align.HOUR, 1 << 20));
        List<LogRecord> expected = new ArrayList<>(WORLD.expectedRecords(QUEUE));

        damage.apply(lake, expected);
        LakeReport report = check(lake, expected);

        assertThat(report.ok()).as(what).isFalse();
        assertThat(report.problems()).as(what).anyMatch(p -> p.contains(named));
    }

    private static LakeReport check(MemoryLake lake, List<LogRecord> expected) throws IOException {
        return new LakeChecker(lake, Prefix.DEFAULT).check(WORLD.tenant(), QUEUE, 3, expected);
    }

    private static MemoryLake lakeOf(WriterSettings settings) throws IOException {
        MemoryLake lake = new MemoryLake();
        WindowEncoder encoder = new WindowEncoder(settings, Prefix.DEFAULT, "default");
        for (int w = 0; w < 3; w++) {
            EncodedWindow encoded = encoder.encode(WORLD.window(QUEUE, w).window());
            for (EncodedObject o : encoded.objects()) {
                lake.files.put(o.key(), o.body());
            }
            lake.files.put(SIDECARS.manifest(w + 1), ManifestJson.write(encoded.manifest().withCommittedAt(1_000L + w)));
        }
        return lake;
    }

    private static String firstObject(MemoryLake lake, long k) {
        return lake.manifest(k).objects().get(0).key();
    }

    private static List<io.queenlake.format.manifest.ManifestObject> concat(Manifest a, Manifest b) {
        List<io.queenlake.format.manifest.ManifestObject> all = new ArrayList<>(a.objects());
        all.addAll(b.objects());
        return all;
    }

    private static Manifest withObjects(Manifest m, List<io.queenlake.format.manifest.ManifestObject> objects) {
        return new Manifest(m.sink(), m.tenant(), m.queue(), m.k(), m.tStart(), m.tEnd(), m.format(), m.compression(),
                m.layout(), objects, m.records(), m.bytes(), m.partitions(), m.minTs(), m.maxTs(), m.lost(), m.writer(),
                m.committedAtMicros());
    }

    private static Manifest positionsOnePast(Manifest m) {
        return new Manifest(m.sink(), m.tenant(), m.queue(), m.k(), m.tStart(), m.tEnd(), m.format(), m.compression(),
                m.layout(), m.objects(), m.records(), m.bytes(), m.partitions(), m.minTs(), m.maxTs(), m.lost(),
                m.positions().stream().map(p -> new io.queenlake.format.manifest.CheckpointDoc.Position(p.partition(),
                        p.offset() + 1, p.partitionId())).toList(), m.writer(), m.committedAtMicros());
    }

    private static Manifest shifted(Manifest m, long micros) {
        return new Manifest(m.sink(), m.tenant(), m.queue(), m.k(), m.tStart() + micros, m.tEnd(), m.format(),
                m.compression(), m.layout(), m.objects(), m.records(), m.bytes(), m.partitions(), m.minTs(), m.maxTs(),
                m.lost(), m.writer(), m.committedAtMicros());
    }

    @FunctionalInterface
    interface Damage {
        void apply(MemoryLake lake, List<LogRecord> expected) throws IOException;
    }

    /** A lake in memory, keyed like a bucket. */
    static final class MemoryLake implements LakeFiles {
        final Map<String, byte[]> files = new TreeMap<>();

        @Override
        public List<String> list(String keyPrefix) {
            return files.keySet().stream().filter(k -> k.startsWith(keyPrefix)).toList();
        }

        @Override
        public byte[] read(String key) {
            return files.get(key);
        }

        Manifest manifest(long k) {
            return ManifestJson.read(files.get(SIDECARS.manifest(k)));
        }

        void rewriteManifest(long k, java.util.function.UnaryOperator<Manifest> change) {
            files.put(SIDECARS.manifest(k), ManifestJson.write(change.apply(manifest(k))));
        }

        void flipLastByte(String key) {
            byte[] body = files.get(key).clone();
            body[body.length - 1] ^= 1;
            files.put(key, body);
        }
    }
}
