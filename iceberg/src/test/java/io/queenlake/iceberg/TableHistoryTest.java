package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.CatalogUnavailableException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.devstack.catalog.DevCatalog;
import io.queenlake.devstack.catalog.DevCatalogOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.manifest.ManifestObject;
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
import io.queenlake.connector.testutils.CapturedLog;
import io.queenlake.iceberg.IcebergRows;
import io.queenlake.connector.testutils.TestWindows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.stream.LongStream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, "the table equals the lake": a queue's table that the job creates while the lake
 * already holds committed windows (for the first time, after a drop, in a catalog that forgot it)
 * gets them all from their manifests before the window being appended, in bounded commits, and
 * then holds every object of windows {@code 1..k} once with the manifests' record counts, and every
 * record once as Iceberg's own reader reads it; a backfill stopped anywhere (a failed read, a crash
 * after a commit landed) resumes where it stopped and registers nothing twice;
 * {@code QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS} bounds the history, which the table records and
 * verify and status call intended; a table that lacks windows the lake has is a problem naming
 * them. The lakes are real: objects and manifests written by the writer's own encoder into a
 * {@code file://} bucket, as the committer reads them; the catalog is the embedded REST catalog
 * ({@code ./queen-lake dev-catalog}) with its warehouse in the embedded S3 server.
 */
@Timeout(120)
class TableHistoryTest {

    private static final String SINK = "history";
    private static final WriterSettings MERGED = new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.MERGED,
            Align.HOUR, 1 << 20);
    private static final WriterSettings JSONL = new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED,
            Align.HOUR, 1 << 20);
    private static final WriterSettings PER_PARTITION = new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD),
            Layout.PER_PARTITION, Align.HOUR, 1 << 20);

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static DevCatalog rest;

    @BeforeAll
    static void start() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        rest = DevCatalog.start(DevCatalogOptions.builder().s3(s3).build());
    }

    @AfterAll
    static void stop() {
        rest.close();
        s3.close();
    }

    @Test
    void aTableCreatedWhileTheLakeHoldsWindowsGetsThemAllBeforeTheNextWindowAndThenEqualsTheLake() throws Exception {
        Lake lake = new Lake("created", 24, PER_PARTITION);
        // Three objects a window: a commit takes windows until it holds 30 data files.
        try (QueueTables tables = tables(link(rest), lake, 1_000, 30)) {
            assertThat(tables.append(lake.window(23), lake.manifestKey(23))).as("window 23 appended").isTrue();
            assertThat(runs(table(rest, lake))).as("the history in commits of 30 files, then window 23")
                    .containsExactly("1-10", "11-20", "21-22", "23");
            assertEqualsTheLake(table(rest, lake), lake, 23);

            assertThat(tables.append(lake.window(23), lake.manifestKey(23))).as("window 23 retried").isFalse();
            assertThat(tables.append(lake.window(24), lake.manifestKey(24))).as("window 24").isTrue();
        }
        Table table = table(rest, lake);
        assertThat(runs(table)).as("the next window, one snapshot as always").endsWith("23", "24");
        assertEqualsTheLake(table, lake, 24);
        assertThat(table.properties()).containsEntry("queen." + SINK + ".first-window", "1")
                .containsEntry("queen." + SINK + ".last-window", "24");
    }

    @Test
    void aTableDroppedOrACatalogThatForgotItGetsTheLakesHistoryBackBeforeItsNextWindow() throws Exception {
        Lake lake = new Lake("dropped", 7, MERGED);
        CatalogLink link = link(rest);
        try (QueueTables tables = tables(link, lake, 1_000, 20_000)) {
            for (long k = 1; k <= 5; k++) {
                assertThat(tables.append(lake.window(k), lake.manifestKey(k))).isTrue();
            }
            try (Closing<Catalog> c = open(link)) {
                // Without purge: the data files are the lake's objects.
                assertThat(c.it().dropTable(link.tableOf(lake.queue), false)).isTrue();
            }
            // The committer's loaded table is gone: its first attempt fails and is retried.
            appendAsTheCommitterRetries(tables, lake, 6);
        }
        assertThat(runs(table(rest, lake))).as("the new table: windows 1..5, then 6").containsExactly("1-5", "6");
        assertEqualsTheLake(table(rest, lake), lake, 6);

        // The catalog restarted empty (an in-memory dev catalog): the table is created there again, whole.
        try (DevCatalog forgetful = DevCatalog.start(DevCatalogOptions.builder().s3(s3).build());
                QueueTables tables = tables(link(forgetful), lake, 1_000, 20_000)) {
            assertThat(tables.append(lake.window(7), lake.manifestKey(7))).isTrue();
            assertThat(runs(table(forgetful, lake))).containsExactly("1-6", "7");
            assertEqualsTheLake(table(forgetful, lake), lake, 7);
        }
        assertThat(lake.objectsOnDisk()).as("no lake object deleted").isEqualTo(lake.objectsThrough(7));
    }

    @Test
    void aBackfillStoppedAnywhereResumesWhereItStoppedAndRegistersNoWindowTwice() throws Exception {
        Lake lake = new Lake("crash", 31, MERGED);
        CatalogLink link = link(rest);
        TableHistory.LakeReader real = TableHistory.throughFlink(lake::path);

        // 1. The bucket fails while the second commit's manifests are read: the first commit stands alone.
        AtomicBoolean failed = new AtomicBoolean();
        TableHistory.LakeReader failingOnce = key -> {
            if (key.equals(lake.manifestKey(17)) && failed.compareAndSet(false, true)) {
                throw new IOException("injected: the bucket answered 503 for " + key);
            }
            return real.read(key);
        };
        try (QueueTables tables = new QueueTables(link, SINK, lake.world.tenant(), Align.HOUR, lake::path, failingOnce,
                10, 20_000)) {
            assertThatThrownBy(() -> tables.append(lake.window(31), lake.manifestKey(31)))
                    .isInstanceOf(CatalogUnavailableException.class)
                    .hasMessageContaining("could not read the lake's manifests of queue 'crash'")
                    .hasMessageContaining("injected: the bucket answered 503");
            assertThat(tables.lastAppended(lake.queue)).isEqualTo(10);
        }
        assertThat(runs(table(rest, lake))).containsExactly("1-10");

        // 2. The process dies right after the second commit landed, before it learnt so.
        AtomicInteger commits = new AtomicInteger();
        try (TableHistory history = new TableHistory(real, CatalogLink.ALL_WINDOWS, 10, 20_000);
                Closing<Catalog> c = open(link)) {
            Table table = c.it().loadTable(link.tableOf(lake.queue));
            assertThatThrownBy(() -> history.fill(table, SINK, lake.window(31), lake.manifestKey(31),
                    lake::path, () -> {
                        if (commits.incrementAndGet() == 1) {
                            throw new IllegalStateException("injected: the task manager died after the commit");
                        }
                    })).hasMessageContaining("injected: the task manager died");
        }
        assertThat(runs(table(rest, lake))).as("the landed commit is in the table").containsExactly("1-10", "11-20");

        // 3. The restarted job retries window 31: it goes on from window 21.
        try (QueueTables tables = tables(link, lake, 10, 20_000)) {
            assertThat(tables.append(lake.window(31), lake.manifestKey(31))).isTrue();
            assertThat(tables.append(lake.window(31), lake.manifestKey(31))).as("retried once more").isFalse();
        }
        assertThat(runs(table(rest, lake))).containsExactly("1-10", "11-20", "21-30", "31");
        assertEqualsTheLake(table(rest, lake), lake, 31);
    }

    @Test
    void theHistoryLimitIsRecordedInTheTableAndVerifyAndStatusCallItIntended() throws Exception {
        Lake lake = new Lake("limited", 20, MERGED);
        CatalogLink link = link(rest).withBackfillWindows("5");
        try (QueueTables tables = tables(link, lake, 1_000, 20_000)) {
            assertThat(tables.append(lake.window(20), lake.manifestKey(20))).isTrue();
        }
        Table table = table(rest, lake);
        assertThat(runs(table)).containsExactly("15-19", "20");
        assertThat(table.properties()).containsEntry("queen." + SINK + ".first-window", "15");

        TableCheck check = TableCheck.of(table, SINK, lake.queue, 20, lake.manifestsThrough(20), lake::path);
        assertThat(check.problems()).isEmpty();
        assertThat(check.windows()).containsExactlyElementsOf(range(15, 20));
        assertThat(check.summary()).isEqualTo("  Iceberg table queen_lake.queen.limited: 6 windows (15..20), "
                + lake.recordsThrough(20, 15).size() + " records; its history starts at window 15"
                + " (QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS): windows 1..14 left out as intended");
        assertThat(IcebergRows.of(table)).containsExactlyInAnyOrderElementsOf(IcebergRows.of(lake.recordsThrough(20, 15)));
        try (Closing<Catalog> c = open(link)) {
            assertThat(TableStatus.read(c.it(), link, SINK, lake.queue).line(20)).contains("through window k=20")
                    .contains(", as the commit pointer; its history starts at window 15"
                            + " (QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS), as intended;");
        }

        // 0: no history at all, the table starts with the window the job appends.
        Lake none = new Lake("no-history", 4, MERGED);
        try (QueueTables tables = tables(link(rest).withBackfillWindows("0"), none, 1_000, 20_000)) {
            assertThat(tables.append(none.window(4), none.manifestKey(4))).isTrue();
        }
        assertThat(runs(table(rest, none))).containsExactly("4");
        assertThat(table(rest, none).properties()).containsEntry("queen." + SINK + ".first-window", "4");
        assertThat(TableCheck.of(table(rest, none), SINK, none.queue, 4, none.manifestsThrough(4), none::path).problems())
                .isEmpty();
    }

    @Test
    void aTableThatLacksWindowsTheLakeHasIsAProblemNamingThemInVerifyAndStatus() throws Exception {
        Lake lake = new Lake("lacking", 11, MERGED);
        CatalogLink link = link(rest);
        // An older job created the table at window 6 and registered nothing before it.
        try (Closing<Catalog> c = open(link)) {
            Table table = c.it().buildTable(link.tableOf(lake.queue), LakeTableLayout.SCHEMA)
                    .withPartitionSpec(LakeTableLayout.spec(Align.HOUR))
                    .withProperties(LakeTableLayout.properties(lake.queue, lake.world.tenant(), SINK)).create();
            for (long k = 6; k <= 8; k++) {
                WindowAppend.commit(table, SINK, List.of(lake.window(k)), lake.manifestKey(k), false, lake::path);
            }
        }

        TableCheck check = TableCheck.of(table(rest, lake), SINK, lake.queue, 10, lake.manifestsThrough(11), lake::path);
        assertThat(check.problems()).containsExactly("Iceberg table queen_lake.queen.lacking lacks windows 1..5, 9..10 of"
                + " the lake's 1..10: drop the table, and the job creates it again with the lake's windows (as"
                + " QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS allows) before it appends its next one");
        try (Closing<Catalog> c = open(link)) {
            assertThat(TableStatus.read(c.it(), link, SINK, lake.queue).line(10))
                    .contains("through window k=8")
                    .contains("behind the commit pointer's k=10: it lacks windows 9..10 of the lake's 1..10, committed"
                            + " without the catalog; the job registers them before it appends its next window")
                    .contains("; it lacks windows 1..5 of the lake's 1..10, unless they were written before"
                            + " QUEEN_S3_FORMAT=parquet (a table made by an older job, which did not register the windows"
                            + " before its first; ./queen-lake verify tells): drop the table, and the job creates it again"
                            + " with them before its next window");
        }

        // The job fills what lies above the table's last window; below its first it cannot know the table wants it.
        try (QueueTables tables = tables(link, lake, 1_000, 20_000)) {
            assertThat(tables.append(lake.window(11), lake.manifestKey(11))).isTrue();
        }
        assertThat(runs(table(rest, lake))).containsExactly("6", "7", "8", "9-10", "11");
        assertThat(TableCheck.of(table(rest, lake), SINK, lake.queue, 11, lake.manifestsThrough(11), lake::path)
                .problems()).containsExactly("Iceberg table queen_lake.queen.lacking lacks windows 1..5 of the lake's"
                + " 1..11: drop the table, and the job creates it again with the lake's windows (as"
                + " QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS allows) before it appends its next one");
    }

    @Test
    void windowsTheLakeWroteAsJsonlBeforeTheCatalogStayInTheLakeOnlyAndVerifySaysSo() throws Exception {
        Lake lake = new Lake("switched", 6, w -> w < 3 ? JSONL : MERGED);
        try (QueueTables tables = tables(link(rest), lake, 3, 20_000)) {
            assertThat(tables.append(lake.window(6), lake.manifestKey(6))).isTrue();
        }
        Table table = table(rest, lake);
        assertThat(runs(table)).as("the JSONL windows a run of their own, without a data file")
                .containsExactly("1-3", "4-5", "6");
        TableCheck check = TableCheck.of(table, SINK, lake.queue, 6, lake.manifestsThrough(6), lake::path);
        assertThat(check.problems()).isEmpty();
        assertThat(check.windows()).containsExactly(4L, 5L, 6L);
        assertThat(check.notes()).containsExactly("windows 1..3 of the lake are not Parquet (written before"
                + " QUEEN_S3_FORMAT=parquet): in the lake only, as intended");
        assertThat(IcebergRows.of(table)).containsExactlyInAnyOrderElementsOf(IcebergRows.of(lake.recordsThrough(6, 4)));
    }

    @Test
    void aLongHistoryIsRegisteredAThousandWindowsACommit() throws Exception {
        int windows = 2_100;
        Lake lake = Lake.standIns("long", windows);
        long started = System.nanoTime();
        List<String> log;
        try (CapturedLog captured = new CapturedLog(TableHistory.class, Level.INFO);
                QueueTables tables = new QueueTables(link(rest), SINK, lake.world.tenant(), Align.HOUR, lake::path)) {
            assertThat(tables.append(lake.window(windows), lake.manifestKey(windows))).isTrue();
            log = captured.lines();
        }
        System.out.printf("history: %d windows registered in %d ms:%n  %s%n", windows - 1,
                (System.nanoTime() - started) / 1_000_000L, String.join("\n  ", log));
        assertThat(log).hasSize(4);
        assertThat(log.get(0)).isEqualTo("INFO Iceberg table queen_lake.queen.long queue=long lacks the lake's windows"
                + " 1..2099: registering them before window k=2100, up to 1000 windows a commit");
        assertThat(log.subList(1, 4)).as("one line a commit: its windows, files, records and time").satisfiesExactly(
                l -> assertThat(l).matches("INFO Iceberg table queen_lake\\.queen\\.long queue=long registered the lake's"
                        + " windows 1\\.\\.1000 \\(1000 files, 3000 records\\) in \\d+ ms \\(the commit \\d+ ms\\);"
                        + " 1099 windows to go before k=2100"),
                l -> assertThat(l).contains("windows 1001..2000 (1000 files, 3000 records) in ")
                        .endsWith("; 99 windows to go before k=2100"),
                l -> assertThat(l).contains("windows 2001..2099 (99 files, 297 records) in ")
                        .endsWith("; 0 windows to go before k=2100"));
        Table table = table(rest, lake);
        assertThat(runs(table)).containsExactly("1-1000", "1001-2000", "2001-2099", "2100");
        TableCheck check = TableCheck.of(table, SINK, lake.queue, windows, lake.manifestsThrough(windows), lake::path);
        assertThat(check.problems()).isEmpty();
        assertThat(check.windows()).hasSize(windows);
        assertThat(check.records()).isEqualTo(3L * windows);
    }

    // ---------------------------------------------------------------------------------------------

    /** The table holds windows 1..k as the lake does: each object once with its record count, each record once. */
    private static void assertEqualsTheLake(Table table, Lake lake, long k) throws IOException {
        Map<Long, Manifest> manifests = lake.manifestsThrough(k);
        TableCheck check = TableCheck.of(table, SINK, lake.queue, k, manifests, lake::path);
        assertThat(check.problems()).as("verify's check of %s", table.name()).isEmpty();
        assertThat(check.windows()).as("the windows the table holds").containsExactlyElementsOf(range(1, k));

        Map<String, Long> expected = new HashMap<>();
        manifests.values().forEach(m -> m.objects().forEach(o -> expected.put(lake.path(o.key()), o.records())));
        Map<String, Integer> listed = new HashMap<>();
        Map<String, Long> records = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask t : tasks) {
                listed.merge(t.file().location(), 1, Integer::sum);
                records.put(t.file().location(), t.file().recordCount());
            }
        }
        assertThat(listed.keySet()).as("the data files: the objects manifests 1..%d name", k)
                .containsExactlyInAnyOrderElementsOf(expected.keySet());
        assertThat(listed.values()).as("each data file once").allMatch(n -> n == 1);
        assertThat(records).as("each data file's record count, as its manifest says").isEqualTo(expected);
        assertThat(IcebergRows.of(table)).as("the rows Iceberg's reader reads")
                .containsExactlyInAnyOrderElementsOf(IcebergRows.of(lake.recordsThrough(k, 1)));
        assertThat(table.properties()).containsEntry("queen." + SINK + ".last-window", Long.toString(k));
    }

    private static void appendAsTheCommitterRetries(QueueTables tables, Lake lake, long k) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                assertThat(tables.append(lake.window(k), lake.manifestKey(k))).isTrue();
                return;
            } catch (CatalogUnavailableException e) {
                assertThat(attempt).as("attempts, the last failing with %s", e.getMessage()).isLessThan(3);
            }
        }
    }

    /** What each snapshot of the sink registered, oldest first: {@code a-b} for a run, {@code k} for one window. */
    private static List<String> runs(Table table) {
        TreeMap<Long, Snapshot> bySequence = new TreeMap<>();
        table.snapshots().forEach(s -> bySequence.put(s.sequenceNumber(), s));
        List<String> runs = new ArrayList<>();
        for (Snapshot s : bySequence.values()) {
            if (SINK.equals(s.summary().get("queen.sink"))) {
                String run = s.summary().get("queen.windows");
                runs.add(run != null ? run : s.summary().get("queen.window"));
            }
        }
        return runs;
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    private static CatalogLink link(DevCatalog catalog) {
        return CatalogLink.rest(catalog.url().toString(), catalog.warehouse(), "queen", null, null,
                CatalogLink.lakeFileIo(s3.endpoint().toString(), EmbeddedS3.REGION, true, "k", "s"));
    }

    private static QueueTables tables(CatalogLink link, Lake lake, int windowsPerCommit, int filesPerCommit) {
        return new QueueTables(link, SINK, lake.world.tenant(), Align.HOUR, lake::path, TableHistory.throughFlink(lake::path),
                windowsPerCommit, filesPerCommit);
    }

    private static Table table(DevCatalog catalog, Lake lake) throws IOException {
        CatalogLink link = link(catalog);
        try (Closing<Catalog> c = open(link)) {
            return c.it().loadTable(link.tableOf(lake.queue));
        }
    }

    private record Closing<T>(T it) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            if (it instanceof java.io.Closeable closeable) {
                closeable.close();
            }
        }
    }

    private static Closing<Catalog> open(CatalogLink link) {
        return new Closing<>(link.open());
    }

    /**
     * One queue's committed windows {@code 1..n} in a {@code file://} bucket of its own: objects and
     * stamped manifests as the writer and the committer leave them.
     */
    private static final class Lake {
        final String queue;
        final TestWindows world;
        final String root;
        final SidecarKeys sidecars;
        final List<Manifest> manifests = new ArrayList<>();
        final List<List<LogRecord>> records = new ArrayList<>();

        Lake(String queue, int windows, WriterSettings writer) throws IOException {
            this(queue, windows, w -> writer);
        }

        /** Window {@code w} (0-based) written with {@code writers.apply(w)}. */
        Lake(String queue, int windows, IntFunction<WriterSettings> writers) throws IOException {
            this(queue, windows);
            for (int w = 0; w < windows; w++) {
                var input = (WindowInput) world.window(queue, w).window();
                EncodedWindow encoded = new WindowEncoder(writers.apply(w), Prefix.DEFAULT, SINK).encode(input);
                for (EncodedObject o : encoded.objects()) {
                    write(o.key(), o.body());
                }
                publish(encoded.manifest().withCommittedAt(1_791_007_800_000L + w));
                records.add(input.records());
            }
        }

        private Lake(String queue, int windows) {
            this.queue = queue;
            this.world = new TestWindows(List.of(queue), windows, 7);
            this.root = dir.resolve("lake-" + queue).toUri().toString().replaceAll("/+$", "");
            this.sidecars = new SidecarKeys(Prefix.DEFAULT, world.tenant(), queue);
        }

        /** {@code n} windows of 100 ms in one hour, each a manifest naming one 3-record stand-in object. */
        static Lake standIns(String queue, int n) throws IOException {
            Lake lake = new Lake(queue, n);
            long t = TestWindows.BASE_MICROS;
            for (long k = 1; k <= n; k++) {
                long tStart = t + (k - 1) * 100_000L;
                String key = "queen/tenant=" + lake.world.tenant() + "/queue=" + queue + "/w-" + k + ".parquet";
                lake.publish(new Manifest(SINK, lake.world.tenant(), queue, k, tStart, tStart + 100_000L, "parquet",
                        "zstd", Layout.MERGED, List.of(ManifestObject.merged(key, 20, 3, "aa")), 3, 20, 1, tStart,
                        tStart + 99_999L, List.of(), "queen-lake/test", 1_791_007_800_000_000L + k));
            }
            return lake;
        }

        private void publish(Manifest stamped) throws IOException {
            manifests.add(stamped);
            write(sidecars.manifest(stamped.k()), ManifestJson.write(stamped));
        }

        private void write(String key, byte[] body) throws IOException {
            Path file = folder().resolve(key);
            Files.createDirectories(file.getParent());
            Files.write(file, body);
        }

        private Path folder() {
            return dir.resolve("lake-" + queue);
        }

        String path(String key) {
            return root + "/" + key;
        }

        Manifest window(long k) {
            return manifests.get((int) k - 1);
        }

        String manifestKey(long k) {
            return sidecars.manifest(k);
        }

        Map<Long, Manifest> manifestsThrough(long k) {
            Map<Long, Manifest> out = new HashMap<>();
            for (long j = 1; j <= Math.min(k, manifests.size()); j++) {
                out.put(j, window(j));
            }
            return out;
        }

        List<LogRecord> recordsThrough(long k, long from) {
            List<LogRecord> out = new ArrayList<>();
            for (long j = from; j <= k; j++) {
                out.addAll(records.get((int) j - 1));
            }
            return out;
        }

        long objectsThrough(long k) {
            return manifestsThrough(k).values().stream().mapToLong(m -> m.objects().size()).sum();
        }

        long objectsOnDisk() throws IOException {
            try (var files = Files.walk(folder())) {
                return files.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".parquet")).count();
            }
        }
    }
}
