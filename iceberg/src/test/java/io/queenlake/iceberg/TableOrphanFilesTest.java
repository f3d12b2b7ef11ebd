package io.queenlake.iceberg;

import static io.queenlake.iceberg.StandInWindows.QUEUE;
import static io.queenlake.iceberg.StandInWindows.SINK;
import static io.queenlake.iceberg.StandInWindows.inLake;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.Align;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileTime;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, item 2: Iceberg's own files in a table's metadata folder that nothing references
 * (a metadata.json, a manifest list and a manifest a failed or unknown commit left) are deleted
 * once older than {@code QUEEN_LAKE_ICEBERG_ORPHAN_FILES_OLDER_THAN_MS}; a younger one, every file
 * the table references, anything that is not of Iceberg's own kinds, and every lake object stay.
 * The maintenance thread does it after an append, off the commit's path. Windows appended through
 * {@link QueueTables} into a JDBC catalog on SQLite, the lake a local folder, as in {@link TableUpkeepTest}.
 */
@Timeout(120)
class TableOrphanFilesTest {

    private static final long DAY_MS = 86_400_000L;
    /** Every expiry turn but the first is a day away: the test's appends meet at most one. */
    private static final TableUpkeep UPKEEP = new TableUpkeep(3_600_000L, 5, 30, 5, 10, DAY_MS, 3 * DAY_MS);

    @TempDir
    Path dir;

    @Test
    void unreferencedMetadataFilesOlderThanTheAgeAreDeletedAndNothingElse() throws Exception {
        Path lake = Files.createDirectories(dir.resolve("lake"));
        CatalogLink link = link();
        try (QueueTables tables = new QueueTables(link, SINK, "t", Align.HOUR, key -> lakePath(lake, key))) {
            for (long k = 1; k <= 20; k++) {
                assertThat(tables.append(inLake(lake, k), "manifest-" + k)).isTrue();
            }
        }
        Catalog catalog = link.open();
        try {
            Table table = catalog.loadTable(link.tableOf(QUEUE));
            Path metadata = metadataFolder(table);
            ageAll(metadata, 4);
            Set<String> referencedBefore = namesIn(metadata);
            Path currentJson = Paths.get(URI.create(
                    ((HasTableOperations) table).operations().current().metadataFileLocation()));
            Path manifestList = Paths.get(URI.create(table.currentSnapshot().manifestListLocation()));
            Path manifest = Paths.get(URI.create(table.currentSnapshot().allManifests(table.io()).get(0).path()));

            Path orphanJson = plant(currentJson, metadata.resolve("00007-orphan.metadata.json"), 4);
            Path orphanList = plant(manifestList, metadata.resolve("snap-999-1-orphan.avro"), 4);
            Path orphanManifest = plant(manifest, metadata.resolve("orphan-m0.avro"), 4);
            Path young = plant(manifest, metadata.resolve("young-m0.avro"), 0);
            Path notIcebergs = plant(manifest, metadata.resolve("stray.parquet"), 4);
            Path hint = plant(manifest, metadata.resolve("version-hint.text"), 4);

            TableMaintenance maintenance = new TableMaintenance(UPKEEP, System::currentTimeMillis);
            OrphanMetadata.Sweep sweep = maintenance.removeOrphans(table, System.currentTimeMillis());

            assertThat(sweep.deleted()).as("the three orphans older than 3 days").hasSize(3);
            assertThat(orphanJson).doesNotExist();
            assertThat(orphanList).doesNotExist();
            assertThat(orphanManifest).doesNotExist();
            assertThat(young).as("an orphan younger than the age (a commit may be under way)").exists();
            assertThat(notIcebergs).as("a file Iceberg does not write there").exists();
            assertThat(hint).exists();
            assertThat(namesIn(metadata)).as("every file the table references, though 4 days old")
                    .containsAll(referencedBefore);
            assertThat(maintenance.filesRefused.get()).isZero();
            maintenance.close();

            Table reread = catalog.loadTable(link.tableOf(QUEUE));
            assertEveryWindowReadable(reread, lake, 20);
        } finally {
            close(catalog);
        }
    }

    @Test
    void theMaintenanceThreadRemovesOrphansAfterAnAppendAndNeverALakeObject() throws Exception {
        Path lake = Files.createDirectories(dir.resolve("lake"));
        CatalogLink link = link();
        try (QueueTables tables = new QueueTables(link, SINK, "t", Align.HOUR, key -> lakePath(lake, key))) {
            for (long k = 1; k <= 5; k++) {
                assertThat(tables.append(inLake(lake, k), "manifest-" + k)).isTrue();
            }
        }
        Path orphan;
        Catalog catalog = link.open();
        try {
            Table table = catalog.loadTable(link.tableOf(QUEUE));
            Path metadata = metadataFolder(table);
            ageAll(metadata, 4);
            ageAll(lake, 4);
            orphan = plant(Paths.get(URI.create(table.currentSnapshot().manifestListLocation())),
                    metadata.resolve("snap-1-1-left-by-an-unknown-commit.avro"), 4);
        } finally {
            close(catalog);
        }

        // A new run: its first append asks for the table's upkeep turn, which removes the orphan.
        try (QueueTables tables = new QueueTables(link, SINK, "t", Align.HOUR, key -> lakePath(lake, key))) {
            assertThat(tables.append(inLake(lake, 6), "manifest-6")).isTrue();
            long deadline = System.currentTimeMillis() + 30_000;
            while (tables.maintenanceCounts()[5] == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertThat(tables.maintenanceCounts()[5]).as("orphan removals run").isEqualTo(1);
            assertThat(tables.maintenanceCounts()[6]).as("orphans deleted").isEqualTo(1);
        }
        assertThat(orphan).doesNotExist();
        try (Stream<Path> objects = Files.list(lake)) {
            assertThat(objects.count()).as("the lake's objects, 4 days old, none deleted").isEqualTo(6);
        }
        catalog = link.open();
        try {
            assertEveryWindowReadable(catalog.loadTable(link.tableOf(QUEUE)), lake, 6);
        } finally {
            close(catalog);
        }
    }

    @Test
    void onlyIcebergsOwnKindsOfFileAreCandidates() {
        String folder = "s3://lake/iceberg/queen/orders/metadata/";
        assertThat(OrphanMetadata.icebergOwnKind(folder + "00012-5f1e.metadata.json")).isTrue();
        assertThat(OrphanMetadata.icebergOwnKind(folder + "00012-5f1e.metadata.json.gz")).isTrue();
        assertThat(OrphanMetadata.icebergOwnKind(folder + "snap-1-1-abc.avro")).isTrue();
        assertThat(OrphanMetadata.icebergOwnKind(folder + "abc-m0.avro")).isTrue();
        assertThat(OrphanMetadata.icebergOwnKind(folder + "version-hint.text")).isFalse();
        assertThat(OrphanMetadata.icebergOwnKind(folder + "k-1.parquet")).isFalse();
        assertThat(OrphanMetadata.icebergOwnKind(folder + ".abc-m0.avro.crc")).isFalse();
        assertThat(OrphanMetadata.comparable("s3a://lake/x/metadata/a.avro"))
                .isEqualTo(OrphanMetadata.comparable("s3://lake/x/metadata/a.avro"));
        assertThat(OrphanMetadata.comparable("file:/tmp/wh/metadata/a.avro"))
                .isEqualTo(OrphanMetadata.comparable("file:///tmp/wh/metadata/a.avro"));
    }

    private static void assertEveryWindowReadable(Table table, Path lake, int windows) throws IOException {
        Set<String> files = new HashSet<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask t : tasks) {
                assertThat(files.add(t.file().location())).as("each data file once").isTrue();
                assertThat(Paths.get(URI.create(t.file().location()))).as("a lake object the table names").exists();
            }
        }
        assertThat(files).as("one data file per window").hasSize(windows);
        try (Stream<Path> objects = Files.list(lake)) {
            assertThat(objects.count()).as("the lake's objects, none deleted").isEqualTo(windows);
        }
    }

    private static Path metadataFolder(Table table) {
        return Paths.get(URI.create(TableMaintenance.metadataFolder(table)));
    }

    /** A copy of {@code from} at {@code to}, last modified {@code daysAgo} days ago. */
    private static Path plant(Path from, Path to, int daysAgo) throws IOException {
        Files.copy(from, to);
        Files.setLastModifiedTime(to, FileTime.fromMillis(System.currentTimeMillis() - daysAgo * DAY_MS));
        return to;
    }

    private static void ageAll(Path folder, int daysAgo) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - daysAgo * DAY_MS));
            }
        }
    }

    private static Set<String> namesIn(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            Set<String> names = new HashSet<>();
            files.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".")).forEach(names::add);
            return names;
        }
    }

    private CatalogLink link() {
        return CatalogLink.jdbc("jdbc:sqlite:" + dir.resolve("catalog.db"), dir.resolve("warehouse").toUri().toString(),
                "queen", null, null, CatalogLink.lakeFileIo(null, null, false, null, null)).withUpkeep(UPKEEP);
    }

    private static String lakePath(Path lake, String key) {
        return lake.resolve(key).toUri().toString();
    }

    private static void close(Catalog catalog) throws IOException {
        if (catalog instanceof java.io.Closeable closeable) {
            closeable.close();
        }
    }
}
