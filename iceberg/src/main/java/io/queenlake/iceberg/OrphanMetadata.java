package io.queenlake.iceberg;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Removal of Iceberg's own orphan files (issue 27, item 2), as Iceberg's {@code DeleteOrphanFiles}
 * does it, bounded to what is safe for the lake: only the table's metadata folder is listed (never
 * the table's location, never the lake's prefix), and only files of Iceberg's own kinds there
 * ({@code *.metadata.json}, manifest lists and manifests, {@code *.avro}) are candidates. A
 * candidate is deleted when no metadata version the table keeps (the current one and its
 * metadata log), no snapshot's manifest list, no manifest of a kept snapshot and no statistics
 * file names it, and it is older than the safety age: a younger one may belong to a commit still
 * under way (this job's next window, another writer's). Such files are what a commit whose outcome
 * was unknown, a retried commit or an expiry stopped half-way leaves behind; nothing else deletes
 * them. A data file is never a candidate: the lake's objects are outside the metadata folder and
 * are Parquet.
 */
final class OrphanMetadata {

    /** What one pass found: files listed, orphans deleted, orphans kept for being younger than the age. */
    record Sweep(int listed, List<String> deleted, int young) {}

    private OrphanMetadata() {}

    /** Whether the table's file IO can list its metadata folder (S3FileIO, HadoopFileIO and ResolvingFileIO can). */
    static boolean canList(Table table) {
        return table.io() instanceof SupportsPrefixOperations;
    }

    /**
     * Deletes the table's orphan metadata files last modified before {@code olderThanMillis}, each
     * through {@code delete}.
     *
     * @param table as just loaded: what it references is read from it
     */
    static Sweep remove(Table table, long olderThanMillis, Consumer<String> delete) {
        String folder = TableMaintenance.metadataFolder(table);
        // The listing first: a file written after it is no candidate, and the references read after
        // it include every commit that landed before (a file younger than the age is kept anyway).
        List<FileInfo> listed = new ArrayList<>();
        for (FileInfo f : ((SupportsPrefixOperations) table.io()).listPrefix(folder)) {
            listed.add(f);
        }
        Set<String> referenced = referenced(table);
        List<String> deleted = new ArrayList<>();
        int young = 0;
        for (FileInfo f : listed) {
            String path = f.location();
            if (!TableMaintenance.isTableMetadata(folder, path) || !icebergOwnKind(path)
                    || referenced.contains(comparable(path))) {
                continue;
            }
            if (f.createdAtMillis() >= olderThanMillis) {
                young++;
                continue;
            }
            delete.accept(path);
            deleted.add(path);
        }
        return new Sweep(listed.size(), deleted, young);
    }

    /** Every metadata file the table names: metadata versions, manifest lists, manifests, statistics. */
    private static Set<String> referenced(Table table) {
        Set<String> paths = new HashSet<>();
        TableMetadata current = ((HasTableOperations) table).operations().current();
        paths.add(comparable(current.metadataFileLocation()));
        for (TableMetadata.MetadataLogEntry e : current.previousFiles()) {
            paths.add(comparable(e.file()));
        }
        for (Snapshot s : table.snapshots()) {
            if (s.manifestListLocation() != null) {
                paths.add(comparable(s.manifestListLocation()));
            }
            for (ManifestFile m : s.allManifests(table.io())) {
                paths.add(comparable(m.path()));
            }
        }
        for (StatisticsFile f : current.statisticsFiles()) {
            paths.add(comparable(f.path()));
        }
        for (PartitionStatisticsFile f : current.partitionStatisticsFiles()) {
            paths.add(comparable(f.path()));
        }
        return paths;
    }

    /** The kinds of file Iceberg writes in a metadata folder, and nothing else (no version-hint.text, no Parquet). */
    static boolean icebergOwnKind(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT);
        return !name.startsWith(".") && (name.endsWith(".metadata.json") || name.endsWith(".metadata.json.gz")
                || name.endsWith(".avro"));
    }

    /**
     * One spelling of a location for comparison: {@code file:/x} as {@code file:///x}, and the S3
     * schemes alike, as Iceberg's {@code DeleteOrphanFiles} treats {@code s3}, {@code s3a} and {@code s3n}.
     */
    static String comparable(String location) {
        String normalized = TableMaintenance.normalized(location);
        if (normalized.startsWith("s3a:/") || normalized.startsWith("s3n:/")) {
            return "s3:/" + normalized.substring(5);
        }
        return normalized;
    }
}
