package io.queenlake.iceberg;

import java.io.Closeable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshot expiry of the queues' tables, off the commit's path: after a window's append the
 * committer's thread only asks ({@link #afterAppend}); one daemon thread per {@link QueueTables}
 * runs the expiries, at most one per table at a time and none sooner than
 * {@link TableUpkeep#expireEveryMs} after the table's last one. An expiry that fails is logged and
 * tried again at the next interval; it never fails, nor waits for, an append.
 *
 * <p>An expiry removes snapshots older than {@link TableUpkeep#snapshotMaxAgeMs} and, in a table
 * over {@link TableUpkeep#snapshotsMax}, all but the newest quarter, always keeping the newest
 * {@link TableUpkeep#snapshotsKept}.
 * Iceberg then deletes the manifest lists and manifests no kept snapshot reaches, through
 * {@link #deleteIfTableMetadata}, which deletes only files under the table's own metadata folder:
 * a data file is a lake object, owned by the lake's manifests, and is never deleted here (an
 * append-only table never offers one, since no kept snapshot drops a data file; the guard is for a
 * table someone else rewrote). Exactly once does not depend on the expired snapshots: every append
 * also sets the table property {@code queen.<sink>.last-window} ({@link WindowAppend}).
 *
 * <p>After an expiry, at most hourly per table, the same thread removes the table's orphan metadata
 * files older than {@link TableUpkeep#orphanFilesOlderThanMs} ({@link OrphanMetadata}), through the
 * same guard.
 */
final class TableMaintenance implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(TableMaintenance.class);

    private static final ExecutorService ON_THIS_THREAD = new OnTheCallingThread();

    private final TableUpkeep upkeep;
    private final LongSupplier clock;
    private final ExecutorService executor;
    /** Per table: when its last expiry was asked for (ms), so one is queued or running at most. */
    private final Map<String, Long> lastAsked = new ConcurrentHashMap<>();
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    /** Tables whose last expiry failed: tried again at the interval only. */
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    /** Per table: when its orphan files were last removed (ms). */
    private final Map<String, Long> lastSwept = new ConcurrentHashMap<>();
    final AtomicLong expiries = new AtomicLong();
    final AtomicLong snapshotsExpired = new AtomicLong();
    final AtomicLong filesDeleted = new AtomicLong();
    final AtomicLong filesRefused = new AtomicLong();
    final AtomicLong failures = new AtomicLong();
    final AtomicLong orphanSweeps = new AtomicLong();
    final AtomicLong orphansDeleted = new AtomicLong();

    TableMaintenance(TableUpkeep upkeep, LongSupplier clock) {
        this.upkeep = upkeep;
        this.clock = clock;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "queen-lake-iceberg-maintenance");
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        this.executor = pool;
    }

    /**
     * Called on the committer's thread after an append of {@code name}: queues an expiry of the
     * table unless one is queued or running, or the last one was asked less than the interval ago
     * and the table's history is not past {@link TableUpkeep#snapshotsMax} (so however fast windows
     * commit, the metadata every commit rewrites stays bounded).
     *
     * @param appended the table as the append left it (its snapshots are counted, in memory)
     * @param load loads the table afresh on the maintenance thread (its own client state, never
     *     the committer's {@link Table})
     */
    void afterAppend(String name, Table appended, Supplier<Table> load) {
        long now = clock.getAsLong();
        Long last = lastAsked.get(name);
        if (last != null && now - last < upkeep.expireEveryMs() && !overTheMaximum(name, appended)) {
            return;
        }
        if (!pending.add(name)) {
            return;
        }
        lastAsked.put(name, now);
        try {
            executor.execute(() -> {
                try {
                    Table table = load.get();
                    try {
                        expire(table);
                        failing.remove(name);
                    } catch (RuntimeException e) {
                        failing.add(name);
                        failures.incrementAndGet();
                        LOG.warn("expiring snapshots of Iceberg table {} failed, tried again in {} ms: {}", name,
                                upkeep.expireEveryMs(), e.toString());
                    }
                    sweepIfDue(name, table);
                } catch (RuntimeException e) {
                    failures.incrementAndGet();
                    LOG.warn("maintaining Iceberg table {} failed (loading it), tried again in {} ms: {}", name,
                            upkeep.expireEveryMs(), e.toString());
                } finally {
                    pending.remove(name);
                }
            });
        } catch (RuntimeException rejected) {
            pending.remove(name);
        }
    }

    /**
     * Whether the table's history is past {@link TableUpkeep#snapshotsMax} and a cut would bring it
     * back under: then the expiry does not wait for the interval. Not after an expiry of the table
     * failed (it is tried again at the interval), nor when the kept snapshots are the maximum; and
     * never throws, since the append it follows went through (a table whose refresh fails is not
     * counted).
     */
    private boolean overTheMaximum(String name, Table appended) {
        if (upkeep.snapshotsAfterCut() >= upkeep.snapshotsMax() || failing.contains(name)) {
            return false;
        }
        try {
            return WindowAppend.ancestry(appended).size() > upkeep.snapshotsMax();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Removes the table's orphan metadata files ({@link OrphanMetadata}) unless that is off, the
     * table's file IO cannot list, or the table's last removal was less than
     * {@link TableUpkeep#ORPHAN_SWEEP_EVERY_MS} ago. A failure is logged and tried again at the next one.
     */
    private void sweepIfDue(String name, Table table) {
        long now = clock.getAsLong();
        Long last = lastSwept.get(name);
        if (upkeep.orphanFilesOlderThanMs() == 0 || (last != null && now - last < TableUpkeep.ORPHAN_SWEEP_EVERY_MS)) {
            return;
        }
        lastSwept.put(name, now);
        if (!OrphanMetadata.canList(table)) {
            LOG.info("Iceberg table {}: its file IO {} cannot list the metadata folder; its orphan files are not"
                    + " removed (set QUEEN_LAKE_ICEBERG_ORPHAN_FILES_OLDER_THAN_MS=0 to say so)", name,
                    table.io().getClass().getSimpleName());
            return;
        }
        try {
            removeOrphans(table, now);
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            LOG.warn("removing orphan metadata files of Iceberg table {} failed, tried again in {} ms: {}", name,
                    TableUpkeep.ORPHAN_SWEEP_EVERY_MS, e.toString());
        }
    }

    /** Removes the table's orphan metadata files older than the upkeep's age now, on the calling thread. */
    OrphanMetadata.Sweep removeOrphans(Table table, long now) {
        table.refresh();
        String folder = metadataFolder(table);
        OrphanMetadata.Sweep sweep = OrphanMetadata.remove(table, now - upkeep.orphanFilesOlderThanMs(),
                path -> deleteIfTableMetadata(table, folder, path));
        orphanSweeps.incrementAndGet();
        orphansDeleted.addAndGet(sweep.deleted().size());
        if (!sweep.deleted().isEmpty()) {
            LOG.info("removed {} orphan metadata file(s) of Iceberg table {} (of {} in its metadata folder; {} younger"
                    + " than {} ms kept)", sweep.deleted().size(), table.name(), sweep.listed(), sweep.young(),
                    upkeep.orphanFilesOlderThanMs());
        }
        return sweep;
    }

    /** Expires the table's old snapshots now, on the calling thread; the number expired. */
    int expire(Table table) {
        List<Snapshot> ancestry = WindowAppend.ancestry(table);
        int snapshots = count(table.snapshots());
        long now = clock.getAsLong();
        long olderThan = now - upkeep.snapshotMaxAgeMs();
        if (ancestry.size() > upkeep.snapshotsMax()) {
            // Over the maximum: older than the oldest of the newest quarter.
            olderThan = Math.max(olderThan, ancestry.get(upkeep.snapshotsAfterCut() - 1).timestampMillis());
        }
        if (snapshots <= upkeep.snapshotsKept() || oldest(table) >= olderThan) {
            return 0;
        }
        String metadataFolder = metadataFolder(table);
        // Planned and deleted on this thread, not on Iceberg's shared worker pool, where the appends merge manifests.
        table.expireSnapshots()
                .expireOlderThan(olderThan)
                .retainLast(upkeep.snapshotsKept())
                .planWith(ON_THIS_THREAD)
                .executeDeleteWith(ON_THIS_THREAD)
                .deleteWith(path -> deleteIfTableMetadata(table, metadataFolder, path))
                .commit();
        table.refresh();
        int kept = count(table.snapshots());
        int count = Math.max(snapshots - kept, 0);
        expiries.incrementAndGet();
        snapshotsExpired.addAndGet(count);
        LOG.info("expired {} snapshot(s) of Iceberg table {}: {} kept", count, table.name(), kept);
        return count;
    }

    private static int count(Iterable<Snapshot> snapshots) {
        int n = 0;
        for (Snapshot ignored : snapshots) {
            n++;
        }
        return n;
    }

    private static long oldest(Table table) {
        long oldest = Long.MAX_VALUE;
        for (Snapshot s : table.snapshots()) {
            oldest = Math.min(oldest, s.timestampMillis());
        }
        return oldest;
    }

    /** Where the table writes its metadata (manifests, manifest lists, metadata.json), with a trailing slash. */
    static String metadataFolder(Table table) {
        String folder = table.properties().get(TableProperties.WRITE_METADATA_LOCATION);
        if (folder == null || folder.isBlank()) {
            folder = table.location() + "/metadata";
        }
        return folder.endsWith("/") ? folder : folder + "/";
    }

    /**
     * Deletes a file the expiry no longer needs if it is one of Iceberg's own (under the table's
     * metadata folder, not a Parquet file); any other path, a lake object above all, is logged and kept.
     */
    private void deleteIfTableMetadata(Table table, String metadataFolder, String path) {
        if (isTableMetadata(metadataFolder, path)) {
            table.io().deleteFile(path);
            filesDeleted.incrementAndGet();
        } else {
            filesRefused.incrementAndGet();
            LOG.warn("expiring snapshots of Iceberg table {} offered {} for deletion; kept: it is not under the"
                    + " table's metadata folder {} (the lake's objects are the lake's, owned by its manifests)",
                    table.name(), path, metadataFolder);
        }
    }

    static boolean isTableMetadata(String metadataFolder, String path) {
        String folder = normalized(metadataFolder);
        String file = normalized(path);
        return file.startsWith(folder) && !file.substring(folder.length()).contains("..") && !file.endsWith(".parquet");
    }

    /** One spelling of a location: {@code file:///x}, {@code file:/x} and {@code file://x} alike. */
    static String normalized(String location) {
        int colon = location.indexOf(':');
        if (colon <= 0 || !location.substring(0, colon).matches("[A-Za-z][A-Za-z0-9+.-]*")) {
            return location;
        }
        String rest = location.substring(colon + 1);
        int slashes = 0;
        while (slashes < rest.length() && rest.charAt(slashes) == '/') {
            slashes++;
        }
        return location.substring(0, colon).toLowerCase(java.util.Locale.ROOT) + ":/" + rest.substring(slashes);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }

    /** Runs each task on the thread that hands it over: the expiry's own. */
    private static final class OnTheCallingThread extends AbstractExecutorService {
        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void shutdown() {}

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return false;
        }
    }
}
