package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.CatalogUnavailableException;
import static io.queenlake.iceberg.StandInWindows.QUEUE;
import static io.queenlake.iceberg.StandInWindows.SINK;
import static io.queenlake.iceberg.StandInWindows.inLake;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Align;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27: a table that takes one snapshot per window stays small for ever (snapshots, metadata
 * files and manifests bounded), while every window is in it exactly once, expiry deletes no lake
 * object, and a retry of a window whose snapshot expired is still found (the table property
 * {@code queen.<sink>.last-window}). Windows appended through {@link QueueTables} into a JDBC
 * catalog on SQLite, as the committer appends them; the data files are stand-ins in a local lake.
 */
class TableUpkeepTest {


    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void thousandsOfWindowsLeaveABoundedTableHoldingEachWindowOnceAndEveryLakeObject() throws Exception {
        int windows = Integer.getInteger("upkeep.windows", 250);
        TableUpkeep upkeep = new TableUpkeep(3_600_000L, 5, 30, 5, 10, Long.getLong("upkeep.every", 100));
        CatalogLink link = link().withUpkeep(upkeep);
        Path lake = Files.createDirectories(dir.resolve("lake"));
        List<Long> commitMillis = new ArrayList<>();
        int retries = 0;
        try (QueueTables tables = new QueueTables(link, SINK, "t", Align.HOUR, key -> lake.resolve(key).toUri().toString())) {
            for (long k = 1; k <= windows; k++) {
                Manifest m = inLake(lake, k);
                long started = System.nanoTime();
                while (true) {
                    try {
                        assertThat(tables.append(m, "manifest-" + k)).as("window %d appended", k).isTrue();
                        break;
                    } catch (CatalogUnavailableException e) {
                        // The committer retries a failing append the same way (a commit that met the expiry's).
                        retries++;
                        assertThat(retries).as("retries, last: %s", e.getMessage()).isLessThan(50);
                    }
                }
                commitMillis.add((System.nanoTime() - started) / 1_000_000L);
                if (k % 100 == 0) {
                    System.out.printf("upkeep: k=%d last commit %d ms, retries %d, counts %s%n", k,
                            commitMillis.get(commitMillis.size() - 1), retries,
                            java.util.Arrays.toString(tables.maintenanceCounts()));
                }
            }

            // A retry of window 1, whose snapshot expired long ago, and of the last window: found, not appended.
            assertThat(tables.append(inLake(lake, 1), "manifest-1")).as("window 1 again").isFalse();
            assertThat(tables.append(inLake(lake, windows), "manifest-" + windows)).as("the last window again").isFalse();
            assertThat(tables.lastAppended(QUEUE)).isEqualTo(windows);
            long[] counts = tables.maintenanceCounts();
            System.out.printf("upkeep: %d windows, %d expiries, %d snapshots expired, %d metadata files deleted,"
                    + " %d paths refused, %d failures, %d append retries%n", windows, counts[0], counts[1], counts[2],
                    counts[3], counts[4], retries);
            assertThat(counts[0]).as("expiries run").isPositive();
            assertThat(counts[3]).as("paths the expiry offered that were not the table's metadata").isZero();
        }

        Catalog c = link.open();
        try {
            Table table = c.loadTable(link.tableOf(QUEUE));
            int snapshots = count(table.snapshots());
            // Each window exactly once, and every data file still in the lake.
            Map<String, Long> files = new HashMap<>();
            long records = 0;
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask t : tasks) {
                    DataFile f = t.file();
                    files.merge(f.location(), 1L, Long::sum);
                    records += f.recordCount();
                    assertThat(Paths.get(URI.create(f.location()))).as("a lake object the table names").exists();
                }
            }
            assertThat(files).as("one data file per window").hasSize(windows);
            assertThat(files.values()).as("each data file once").allMatch(n -> n == 1L);
            assertThat(records).isEqualTo(3L * windows);
            try (Stream<Path> objects = Files.list(lake)) {
                assertThat(objects.count()).as("the lake's objects, none deleted").isEqualTo(windows);
            }
            assertThat(table.properties()).containsEntry("queen." + SINK + ".last-window", Long.toString(windows))
                    .containsEntry("write.metadata.delete-after-commit.enabled", "true")
                    .containsEntry("write.metadata.previous-versions-max", "5")
                    .containsEntry("commit.manifest.min-count-to-merge", "10");

            Path metadata = Paths.get(URI.create(TableMaintenance.metadataFolder(table)));
            long metadataJson;
            long manifestLists;
            long manifests;
            try (Stream<Path> all = Files.list(metadata)) {
                List<String> names = all.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).toList();
                metadataJson = names.stream().filter(n -> n.endsWith(".metadata.json")).count();
                manifestLists = names.stream().filter(n -> n.startsWith("snap-")).count();
                manifests = names.stream().filter(n -> n.endsWith(".avro") && !n.startsWith("snap-")).count();
            }
            int currentManifests = table.currentSnapshot().allManifests(table.io()).size();
            long metadataBytes = Files.size(Paths.get(URI.create(
                    ((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation())));
            System.out.printf("upkeep: after %d windows: %d snapshots, %d metadata.json (current %d bytes), %d manifest"
                    + " lists, %d manifest files (%d in the current snapshot); commit ms first 100 avg %.1f, last 100"
                    + " avg %.1f%n", windows, snapshots, metadataJson, metadataBytes, manifestLists, manifests,
                    currentManifests, avg(commitMillis.subList(0, 100)),
                    avg(commitMillis.subList(windows - 100, windows)));
            assertThat(snapshots).as("snapshots (at most 30, and those appended since the last expiry)")
                    .isLessThanOrEqualTo(60);
            // The current one and 5 before, one an expiry stopped by the close may have left, and one per
            // append that met the expiry's commit and was retried (its metadata.json was never current, so
            // no later commit deletes it: a busy machine makes more of them).
            assertThat(metadataJson).as("metadata.json files, after %d append retries", retries)
                    .isLessThanOrEqualTo(7 + retries);
            assertThat(manifestLists).as("manifest lists: one per kept snapshot").isEqualTo(snapshots);
            assertThat(currentManifests).as("manifests of the current snapshot (merged at 10)").isLessThanOrEqualTo(11);
            assertThat(manifests).as("manifest files on disk").isLessThanOrEqualTo(2L * snapshots + 20);
            assertThat(ancestorsWindows(table)).as("the kept snapshots name the newest windows")
                    .endsWith((long) windows);
        } finally {
            if (c instanceof java.io.Closeable closeable) {
                closeable.close();
            }
        }
    }

    @Test
    @Timeout(120)
    void windowsFasterThanTheExpiryIntervalStillKeepTheSnapshotsBounded() throws Exception {
        // An hour between expiries, far longer than the run: only the count can start them.
        TableUpkeep upkeep = new TableUpkeep(3_600_000L, 5, 20, 5, 10, 3_600_000L);
        assertThat(upkeep.snapshotsAfterCut()).as("the newest quarter, at least the 5 kept").isEqualTo(5);
        CatalogLink link = link().withUpkeep(upkeep);
        Path lake = Files.createDirectories(dir.resolve("lake"));
        // One manifest list per snapshot; expiry deletes the expired ones' (a retried append may leave one).
        Path metadata = dir.resolve("warehouse/queen/orders/metadata");
        int windows = 120;
        int retries = 0;
        long most = 0;
        try (QueueTables tables = new QueueTables(link, SINK, "t", Align.HOUR, key -> lake.resolve(key).toUri().toString())) {
            for (long k = 1; k <= windows; k++) {
                Manifest m = inLake(lake, k);
                while (true) {
                    try {
                        tables.append(m, "manifest-" + k);
                        break;
                    } catch (CatalogUnavailableException e) {
                        // An append that met the expiry's commit: the committer retries it the same way.
                        retries++;
                        assertThat(retries).as("retries, last: %s", e.getMessage()).isLessThan(50);
                    }
                }
                try (Stream<Path> files = Files.list(metadata)) {
                    most = Math.max(most, files.filter(p -> p.getFileName().toString().startsWith("snap-")).count());
                }
            }
            long[] counts = tables.maintenanceCounts();
            System.out.printf("upkeep, count-driven: %d windows, %d expiries, at most %d manifest lists, %d retries%n",
                    windows, counts[0], most, retries);
            // The first append asks once by the clock; every other expiry was the count's.
            assertThat(counts[0]).as("expiries run").isGreaterThanOrEqualTo(3);
            assertThat(tables.append(inLake(lake, 1), "manifest-1")).as("window 1 again, found").isFalse();
        }
        // Over the maximum by at most the appends made while one expiry ran (and a retry's leftovers).
        assertThat(most).as("the most snapshots the table held").isLessThanOrEqualTo(20 + 10 + retries);
    }

    @Test
    void onlyTheTablesOwnMetadataFilesMayBeDeleted() {
        String folder = "s3://lake/iceberg/queen/orders/metadata/";
        assertThat(TableMaintenance.isTableMetadata(folder, folder + "snap-1-1-abc.avro")).isTrue();
        assertThat(TableMaintenance.isTableMetadata(folder, folder + "abc-m0.avro")).isTrue();
        assertThat(TableMaintenance.isTableMetadata("file:///tmp/wh/t/metadata/", "file:/tmp/wh/t/metadata/a.avro"))
                .isTrue();
        assertThat(TableMaintenance.isTableMetadata(folder, "s3://lake/queen/orders/2026/k-1.parquet")).isFalse();
        assertThat(TableMaintenance.isTableMetadata(folder, folder + "x.parquet")).isFalse();
        assertThat(TableMaintenance.isTableMetadata(folder, folder + "../../../../queen/k.avro")).isFalse();
        assertThat(TableMaintenance.isTableMetadata(folder, "s3://lake/iceberg/queen/orders/metadata-x/a.avro")).isFalse();
    }

    private CatalogLink link() {
        return CatalogLink.jdbc("jdbc:sqlite:" + dir.resolve("catalog.db") + "?synchronous=OFF&journal_mode=WAL", dir.resolve("warehouse").toUri().toString(),
                "queen", null, null, CatalogLink.lakeFileIo(null, null, false, null, null));
    }

    private static List<Long> ancestorsWindows(Table table) {
        List<Long> ks = new ArrayList<>();
        for (Snapshot s : WindowAppend.ancestry(table)) {
            ks.add(0, Long.parseLong(s.summary().get(WindowAppend.SUMMARY_WINDOW)));
        }
        return ks;
    }

    private static int count(Iterable<?> items) {
        int n = 0;
        for (Object ignored : items) {
            n++;
        }
        return n;
    }

    private static double avg(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).average().orElse(0);
    }
}
