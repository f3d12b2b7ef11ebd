package io.queenlake.iceberg;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.TableProperties;

/**
 * How each queue's table is kept small while it gets one snapshot per window (issue 27): the
 * table properties that bound what a commit rewrites (old metadata files deleted after each
 * commit, manifests merged on append), and the snapshot expiry the job runs off the commit's path
 * ({@link TableMaintenance}). Set with {@code QUEEN_LAKE_ICEBERG_*}; shipped inside
 * {@link CatalogLink}.
 *
 * @param snapshotMaxAgeMs snapshots older than this expire ({@code history.expire.max-snapshot-age-ms})
 * @param snapshotsKept the newest snapshots never expired, whatever their age
 *     ({@code history.expire.min-snapshots-to-keep})
 * @param snapshotsMax at most this many snapshots stay, whatever their age (at least {@code snapshotsKept});
 *     past it an expiry keeps the newest quarter ({@link #snapshotsAfterCut()}).
 *     The current {@code metadata.json}, read and rewritten by every commit, grows about 1 KB a
 *     snapshot: the default 100 keeps it under 100 KB however short the windows (with the shipped
 *     5 minute windows the hour's age keeps about 12)
 * @param metadataVersionsKept old {@code metadata.json} files kept ({@code write.metadata.previous-versions-max});
 *     older ones are deleted after each commit ({@code write.metadata.delete-after-commit.enabled})
 * @param manifestsMergeAt an append merges the table's small manifests once this many have gathered
 *     ({@code commit.manifest.min-count-to-merge})
 * @param expireEveryMs the least time between two expiries of one table
 * @param orphanFilesOlderThanMs Iceberg's own files in a table's metadata folder that no snapshot
 *     or metadata version references are deleted once older than this ({@link OrphanMetadata});
 *     0 turns that off. Iceberg's {@code DeleteOrphanFiles} defaults to 3 days: a file younger than
 *     that may belong to a commit still under way
 */
public record TableUpkeep(long snapshotMaxAgeMs, int snapshotsKept, int snapshotsMax, int metadataVersionsKept,
        int manifestsMergeAt, long expireEveryMs, long orphanFilesOlderThanMs) implements Serializable {

    private static final long serialVersionUID = 2L;

    /** {@code orphanFilesOlderThanMs} by default: 3 days, as Iceberg's {@code remove_orphan_files}. */
    public static final long ORPHAN_FILES_OLDER_THAN_MS = 259_200_000L;
    /** The least a non-zero {@code orphanFilesOlderThanMs} may be: younger files may be a commit under way. */
    public static final long ORPHAN_FILES_OLDER_THAN_MIN_MS = 3_600_000L;
    /** The least time between two removals of orphan files of one table (a listing of its metadata folder). */
    static final long ORPHAN_SWEEP_EVERY_MS = 3_600_000L;

    /** The defaults of the {@code QUEEN_LAKE_ICEBERG_*} settings (README "Each queue as an Iceberg table"). */
    public static final TableUpkeep DEFAULTS = new TableUpkeep(3_600_000L, 10, 100, 10, 100, 60_000L,
            ORPHAN_FILES_OLDER_THAN_MS);

    public TableUpkeep {
        if (snapshotMaxAgeMs < 0 || snapshotsKept < 1 || snapshotsMax < snapshotsKept || metadataVersionsKept < 1
                || manifestsMergeAt < 2 || expireEveryMs < 0 || orphanFilesOlderThanMs < 0) {
            throw new IllegalArgumentException("table upkeep out of range: snapshotMaxAgeMs=" + snapshotMaxAgeMs
                    + " snapshotsKept=" + snapshotsKept + " snapshotsMax=" + snapshotsMax + " metadataVersionsKept="
                    + metadataVersionsKept + " manifestsMergeAt=" + manifestsMergeAt + " expireEveryMs=" + expireEveryMs
                    + " orphanFilesOlderThanMs=" + orphanFilesOlderThanMs);
        }
    }

    /**
     * How many snapshots an expiry leaves when a table holds more than {@link #snapshotsMax}: the
     * newest quarter (at least {@link #snapshotsKept}). Such an expiry runs after the append whatever
     * {@link #expireEveryMs}, so however fast windows commit a table never holds more than the
     * maximum (and the appends made while one expiry runs). An expiry reads the manifest list of
     * every snapshot the table holds, so cutting deep makes one serve three quarters of the maximum
     * in windows, and the metadata every append rewrites averages under two thirds of the maximum.
     */
    int snapshotsAfterCut() {
        return Math.max(snapshotsKept, snapshotsMax / 4);
    }

    /** An upkeep that removes orphan files older than the default. */
    public TableUpkeep(long snapshotMaxAgeMs, int snapshotsKept, int snapshotsMax, int metadataVersionsKept,
            int manifestsMergeAt, long expireEveryMs) {
        this(snapshotMaxAgeMs, snapshotsKept, snapshotsMax, metadataVersionsKept, manifestsMergeAt, expireEveryMs,
                ORPHAN_FILES_OLDER_THAN_MS);
    }

    /** This upkeep with another age past which orphan metadata files are deleted (0: never). */
    public TableUpkeep withOrphanFilesOlderThanMs(long ms) {
        return new TableUpkeep(snapshotMaxAgeMs, snapshotsKept, snapshotsMax, metadataVersionsKept, manifestsMergeAt,
                expireEveryMs, ms);
    }

    /**
     * The table properties this upkeep needs, set when the job creates a table and again (where they
     * differ) when a run first appends to it. The expiry properties also tell an engine's own
     * {@code expire_snapshots} the job's policy.
     */
    Map<String, String> tableProperties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true");
        p.put(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, Integer.toString(metadataVersionsKept));
        p.put(TableProperties.MANIFEST_MERGE_ENABLED, "true");
        p.put(TableProperties.MANIFEST_MIN_MERGE_COUNT, Integer.toString(manifestsMergeAt));
        p.put(TableProperties.MAX_SNAPSHOT_AGE_MS, Long.toString(snapshotMaxAgeMs));
        p.put(TableProperties.MIN_SNAPSHOTS_TO_KEEP, Integer.toString(snapshotsKept));
        return p;
    }
}
