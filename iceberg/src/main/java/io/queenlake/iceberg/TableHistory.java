package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.TableRefusedException;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table equals the lake (issue 27): before the committer appends window {@code k}, the
 * committed windows the table lacks below it are registered from their manifests in the lake,
 * oldest first. That is every window {@code 1..k-1} when the job creates the table (for the first
 * time, after a drop, in a catalog that forgot it) while the lake already holds them, or, with
 * {@code QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS} set, the last that many of them; and the windows above
 * the table's last one, where the lake went on without the catalog.
 *
 * <p>A run of at most {@link #WINDOWS_PER_COMMIT} windows (and about {@link #FILES_PER_COMMIT}
 * data files) is one snapshot ({@link WindowAppend#commit}): {@code queen.window} names its highest
 * window and the same transaction moves {@code queen.<sink>.last-window} there, so whatever stops
 * a backfill (a crash, a failing catalog or bucket) leaves the table holding whole runs, and the
 * retry reads the table's last window as the committer always does and goes on from the one
 * after it: no window is registered twice, none skipped. The first run also records where the
 * table's history starts ({@code queen.<sink>.first-window}). One INFO line per run says the range
 * and the time it took; a year of short windows is a hundred commits, its manifests read
 * {@link #READS_AT_ONCE} at a time through the file system the committer writes them with.
 */
final class TableHistory implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(TableHistory.class);

    /** The most windows one backfill commit registers. */
    static final int WINDOWS_PER_COMMIT = 1_000;
    /** A backfill commit takes no further window once it registers this many data files. */
    static final int FILES_PER_COMMIT = 20_000;
    /** Manifests read at once (ahead of the commit that registers them). */
    static final int READS_AT_ONCE = 16;

    /** A lake object's bytes by key, null when absent. */
    @FunctionalInterface
    interface LakeReader {
        byte[] read(String key) throws IOException;
    }

    private final LakeReader lake;
    private final long windowsBack;
    private final int windowsPerCommit;
    private final int filesPerCommit;
    private final ThreadPoolExecutor reads;

    /**
     * @param windowsBack how many committed windows below the first one a new table gets
     *     ({@link CatalogLink#ALL_WINDOWS} for all)
     */
    TableHistory(LakeReader lake, long windowsBack, int windowsPerCommit, int filesPerCommit) {
        this.lake = lake;
        this.windowsBack = windowsBack;
        this.windowsPerCommit = windowsPerCommit;
        this.filesPerCommit = filesPerCommit;
        this.reads = new ThreadPoolExecutor(READS_AT_ONCE, READS_AT_ONCE, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "queen-lake-iceberg-history");
                    t.setDaemon(true);
                    return t;
                });
        this.reads.allowCoreThreadTimeOut(true);
    }

    /** Reads the lake through Flink's file system at the paths the committer writes ({@code pathOfKey}). */
    static LakeReader throughFlink(Function<String, String> pathOfKey) {
        return key -> {
            Path path = new Path(pathOfKey.apply(key));
            try (FSDataInputStream in = path.getFileSystem().open(path)) {
                return in.readAllBytes();
            } catch (FileNotFoundException absent) {
                return null;
            }
        };
    }

    /** The first window a table that holds none gets before window {@code k}: all, or the last {@code windowsBack}. */
    static long firstWindowFor(long k, long windowsBack) {
        return windowsBack >= k - 1 ? 1 : k - windowsBack;
    }

    /**
     * Reads the table afresh and registers the committed windows it lacks below {@code window}, in
     * runs, each one commit; the table is then as the append of {@code window} needs it read.
     *
     * @param manifestKey the manifest of {@code window}: the other windows' manifests are its neighbours
     * @param afterCommit called after each run's commit (the snapshot expiry's turn)
     * @return how many windows were registered
     * @throws IOException when the lake could not be read (to retry); an absent or foreign manifest
     *     is a {@link TableRefusedException}
     */
    long fill(Table table, String sink, Manifest window, String manifestKey, Function<String, String> pathOfKey,
            Runnable afterCommit) throws IOException {
        table.refresh();
        long last = WindowAppend.lastAppended(table, sink, window.queue());
        long from = last > 0 ? last + 1 : firstWindowFor(window.k(), windowsBack);
        long to = window.k() - 1;
        if (last >= to || from > to) {
            return 0;
        }
        SidecarKeys sidecars = sidecarsOf(window, manifestKey);
        LOG.info("Iceberg table {} queue={} lacks the lake's windows {}..{}: registering them before window k={},"
                + " up to {} windows a commit", table.name(), window.queue(), from, to, window.k(), windowsPerCommit);
        Deque<Future<Manifest>> ahead = new ArrayDeque<>();
        long nextRead = from;
        long next = from;
        boolean first = last == 0;
        try {
            while (next <= to) {
                long started = System.nanoTime();
                List<Manifest> run = new ArrayList<>();
                int files = 0;
                int notParquet = 0;
                while (next <= to && run.size() < windowsPerCommit && files < filesPerCommit) {
                    while (ahead.size() < READS_AT_ONCE && nextRead <= to) {
                        long j = nextRead++;
                        ahead.add(reads.submit(() -> read(sidecars, window, j, table.name())));
                    }
                    Manifest m = await(ahead.poll());
                    run.add(m);
                    if (WindowAppend.inParquet(m)) {
                        files += m.objects().size();
                    } else {
                        notParquet++;
                    }
                    next++;
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("interrupted while registering the lake's windows " + from + ".."
                            + to + " in " + table.name());
                }
                Manifest newest = run.get(run.size() - 1);
                long committing = System.nanoTime();
                WindowAppend.commit(table, sink, run, sidecars.manifest(newest.k()), first, pathOfKey);
                long done = System.nanoTime();
                first = false;
                afterCommit.run();
                long records = run.stream().filter(WindowAppend::inParquet).mapToLong(Manifest::records).sum();
                LOG.info("Iceberg table {} queue={} registered the lake's windows {}..{} ({} files, {} records{}) in {} ms"
                        + " (the commit {} ms); {} windows to go before k={}", table.name(), window.queue(), run.get(0).k(),
                        newest.k(), files, records, notParquet == 0 ? "" : "; " + notParquet + " windows not in Parquet,"
                                + " left in the lake only", (done - started) / 1_000_000L, (done - committing) / 1_000_000L,
                        to - newest.k(), window.k());
            }
        } finally {
            ahead.forEach(f -> f.cancel(true));
        }
        return to - from + 1;
    }

    private Manifest read(SidecarKeys sidecars, Manifest window, long j, String table) throws IOException {
        String key = sidecars.manifest(j);
        byte[] body = lake.read(key);
        if (body == null) {
            throw new TableRefusedException("the lake lacks manifest " + key + " of queue '" + window.queue()
                    + "', committed before window k=" + window.k() + ", so " + table + " cannot hold the lake's windows:"
                    + " restore it (./queen-lake verify names what else is missing), or set"
                    + " QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS below " + (window.k() - j) + " and drop the table, so its"
                    + " history starts after window " + j);
        }
        Manifest m;
        try {
            m = ManifestJson.read(body);
        } catch (RuntimeException unreadable) {
            throw new TableRefusedException("manifest " + key + " of queue '" + window.queue() + "' does not parse ("
                    + unreadable.getMessage() + "), so " + table + " cannot hold window " + j + "; run ./queen-lake verify",
                    unreadable);
        }
        if (m.k() != j || !m.queue().equals(window.queue()) || !m.tenant().equals(window.tenant())
                || !m.sink().equals(window.sink())) {
            throw new TableRefusedException("manifest " + key + " names window " + m.k() + " of queue '" + m.queue()
                    + "' (tenant '" + m.tenant() + "', sink '" + m.sink() + "'), not window " + j + " of queue '"
                    + window.queue() + "' of sink '" + window.sink() + "': " + table + " cannot hold the lake's windows;"
                    + " run ./queen-lake verify");
        }
        return m;
    }

    private static Manifest await(Future<Manifest> read) throws IOException {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading the lake's manifests");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    /**
     * The sidecar keys of the window's queue, taken from its manifest's key: the prefix is whatever
     * stands before {@code _queen/tenant=.../queue=.../windows/<k>.json}.
     */
    static SidecarKeys sidecarsOf(Manifest window, String manifestKey) {
        String tail = new SidecarKeys(Prefix.DEFAULT, window.tenant(), window.queue()).manifest(window.k())
                .substring(Prefix.DEFAULT.value().length());
        if (!manifestKey.endsWith(tail) || manifestKey.length() == tail.length()) {
            throw new IllegalArgumentException("manifest key " + manifestKey + " is not one of the lake's keys of window "
                    + window.k() + " of queue '" + window.queue() + "' (…" + tail + ")");
        }
        return new SidecarKeys(Prefix.of(manifestKey.substring(0, manifestKey.length() - tail.length())),
                window.tenant(), window.queue());
    }

    @Override
    public void close() {
        reads.shutdownNow();
    }
}
