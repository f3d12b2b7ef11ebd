package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.TableRefusedException;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * One committed window as one atomic Iceberg commit, exactly once. The window's Parquet objects
 * are registered in place as the table's data files (no copy), with their sizes and record counts
 * from the manifest and the window's stamps as {@code ts} bounds. The snapshot summary names the
 * sink, the queue and the window ({@code queen.sink}, {@code queen.queue}, {@code queen.window},
 * {@code queen.window.t-start}, {@code queen.window.t-end}, {@code queen.manifest}), and the same
 * transaction sets the table property {@code queen.<sink>.last-window}, which survives snapshot
 * expiry. Before appending, the table is read again: the highest window of this sink and queue it
 * holds (the newest ancestor snapshot this sink wrote, or the property, whichever is higher) at or
 * above {@code k} means a crashed or retried run appended it already, as Flink's Iceberg sink finds
 * its last committed checkpoint in the snapshot summary.
 *
 * <p>Windows the lake committed before the table had them ({@link TableHistory}) are registered the
 * same way, a run of consecutive windows {@code a..b} as one snapshot: {@code queen.window} names
 * the highest, {@code b} (so the check above needs nothing else), {@code queen.windows} the run
 * {@code a-b}. The commit that gives a table its first window also sets
 * {@code queen.<sink>.first-window}, where the table's history starts.
 */
final class WindowAppend {

    static final String SUMMARY_SINK = "queen.sink";
    static final String SUMMARY_QUEUE = "queen.queue";
    static final String SUMMARY_WINDOW = "queen.window";
    static final String SUMMARY_T_START = "queen.window.t-start";
    static final String SUMMARY_T_END = "queen.window.t-end";
    static final String SUMMARY_MANIFEST = "queen.manifest";
    /** A snapshot that registered a run of windows {@code a..b}: {@code a-b}. */
    static final String SUMMARY_WINDOWS = "queen.windows";

    /** What happened to the window. */
    enum Outcome {
        APPENDED,
        ALREADY_IN_TABLE
    }

    private WindowAppend() {}

    static String lastWindowProperty(String sink) {
        return "queen." + sink + ".last-window";
    }

    static String firstWindowProperty(String sink) {
        return "queen." + sink + ".first-window";
    }

    /** Where the table's history of the sink starts, as the job recorded it; 0 where it did not. */
    static long firstWindowRecorded(Table table, String sink) {
        return parse(table.properties().get(firstWindowProperty(sink)));
    }

    /**
     * The windows {@code [a, b]} a snapshot of this sink registered: its run ({@code queen.windows})
     * or its one window.
     */
    static long[] windowsOf(Snapshot s) {
        long last = parse(s.summary().get(SUMMARY_WINDOW));
        String run = s.summary().get(SUMMARY_WINDOWS);
        if (run != null) {
            int dash = run.indexOf('-');
            long first = dash > 0 ? parse(run.substring(0, dash)) : 0;
            if (first > 0 && first <= last) {
                return new long[] {first, last};
            }
        }
        return new long[] {last, last};
    }

    /** The highest window of {@code sink}'s {@code queue} the table holds, 0 for none. */
    static long lastAppended(Table table, String sink, String queue) {
        return lastWindow(table, sink, queue).k();
    }

    /**
     * The highest window of the sink's queue the table holds (0 for none), and the snapshot that
     * appended it while that snapshot is still in the table's history.
     */
    record LastWindow(long k, Optional<Snapshot> appendedBy) {}

    static LastWindow lastWindow(Table table, String sink, String queue) {
        long fromProperty = parse(table.properties().get(lastWindowProperty(sink)));
        for (Snapshot s : ancestry(table)) {
            if (wroteWindow(s, sink, queue)) {
                long fromHistory = parse(s.summary().get(SUMMARY_WINDOW));
                return fromHistory >= fromProperty ? new LastWindow(fromHistory, Optional.of(s))
                        : new LastWindow(fromProperty, Optional.empty());
            }
        }
        return new LastWindow(fromProperty, Optional.empty());
    }

    /** The current snapshot and its ancestors still in the table, newest first. */
    static List<Snapshot> ancestry(Table table) {
        List<Snapshot> ancestry = new ArrayList<>();
        for (Snapshot s = table.currentSnapshot(); s != null;
                s = s.parentId() == null ? null : table.snapshot(s.parentId())) {
            ancestry.add(s);
        }
        return ancestry;
    }

    /** Whether this sink wrote the snapshot, appending one of the queue's windows. */
    static boolean wroteWindow(Snapshot s, String sink, String queue) {
        Map<String, String> summary = s.summary();
        return sink.equals(summary.get(SUMMARY_SINK)) && queue.equals(summary.get(SUMMARY_QUEUE));
    }

    /**
     * Appends the window unless the table holds it already.
     *
     * @param table the table as just read from the catalog (or as this job's own commits since left it)
     * @param manifestKey the window's manifest, named in the snapshot summary
     * @param pathOfKey the object's path as readers open it ({@code s3://bucket/key})
     */
    static Outcome append(Table table, String sink, Manifest m, String manifestKey, Function<String, String> pathOfKey) {
        long last = lastAppended(table, sink, m.queue());
        if (last >= m.k()) {
            return Outcome.ALREADY_IN_TABLE;
        }
        commit(table, sink, List.of(m), manifestKey, last == 0, pathOfKey);
        return Outcome.APPENDED;
    }

    /**
     * Registers consecutive windows of one queue, oldest first, as one snapshot in one transaction
     * that also moves {@code queen.<sink>.last-window} to the last of them.
     *
     * @param lastManifestKey the last window's manifest, named in the snapshot summary
     * @param first whether these are the first windows the table gets: then the transaction also
     *     records where its history starts ({@code queen.<sink>.first-window})
     */
    static void commit(Table table, String sink, List<Manifest> windows, String lastManifestKey, boolean first,
            Function<String, String> pathOfKey) {
        Manifest oldest = windows.get(0);
        Manifest newest = windows.get(windows.size() - 1);
        requireLakeColumns(table, newest);
        Transaction tx = table.newTransaction();
        // A merging append (as Flink's Iceberg sink commits): once commit.manifest.min-count-to-merge
        // small manifests gathered it writes them as one, so the manifests do not grow one per window.
        AppendFiles append = tx.newAppend();
        for (Manifest m : windows) {
            dataFiles(table, m, pathOfKey).forEach(append::appendFile);
        }
        append.set(SUMMARY_SINK, sink)
                .set(SUMMARY_QUEUE, newest.queue())
                .set(SUMMARY_WINDOW, Long.toString(newest.k()))
                .set(SUMMARY_T_START, Long.toString(oldest.tStart()))
                .set(SUMMARY_T_END, Long.toString(newest.tEnd()))
                .set(SUMMARY_MANIFEST, lastManifestKey);
        if (windows.size() > 1) {
            append.set(SUMMARY_WINDOWS, oldest.k() + "-" + newest.k());
        }
        append.commit();
        var properties = tx.updateProperties().set(lastWindowProperty(sink), Long.toString(newest.k()));
        if (first && table.properties().get(firstWindowProperty(sink)) == null) {
            properties.set(firstWindowProperty(sink), Long.toString(oldest.k()));
        }
        properties.commit();
        tx.commitTransaction();
    }

    private static void requireLakeColumns(Table table, Manifest m) {
        if (!LakeTableLayout.holdsLakeColumns(table.schema())) {
            throw new TableRefusedException("the Iceberg table " + table.name() + " of queue '" + m.queue()
                    + "' no longer has the lake's columns (partition, offset, transaction_id, ts, payload) with their"
                    + " ids and types: " + table.schema().asStruct() + "; restore them (or drop the table, which the job"
                    + " creates again) before window k=" + m.k() + " can be appended");
        }
    }

    /**
     * Whether the window's objects are Parquet, which the table reads. A lake that was JSONL before
     * {@code QUEEN_S3_FORMAT=parquet} (which the catalog needs) keeps those windows to itself: they
     * count as registered, with no data file.
     */
    static boolean inParquet(Manifest m) {
        return "parquet".equals(m.format());
    }

    /** The window's objects as data files of the table, in place (none for a window that is not Parquet). */
    private static List<DataFile> dataFiles(Table table, Manifest m, Function<String, String> pathOfKey) {
        if (!inParquet(m)) {
            return List.of();
        }
        List<DataFile> files = new ArrayList<>(m.objects().size());
        for (ManifestObject o : m.objects()) {
            DataFiles.Builder file = DataFiles.builder(table.spec())
                    .withPath(pathOfKey.apply(o.key()))
                    .withFormat(FileFormat.PARQUET)
                    .withFileSizeInBytes(o.bytes())
                    .withMetrics(metrics(o.records(), m.minTs(), m.maxTs()));
            if (table.spec().isPartitioned()) {
                file.withPartition(partitionOf(table, m));
            }
            files.add(file.build());
        }
        return files;
    }

    /** The record count and the window's stamps as true (if loose) bounds of every object's {@code ts}. */
    private static Metrics metrics(long records, long minTs, long maxTs) {
        Type ts = Types.TimestampType.withZone();
        ByteBuffer lower = Conversions.toByteBuffer(ts, minTs);
        ByteBuffer upper = Conversions.toByteBuffer(ts, maxTs);
        return new Metrics(records, null, null, Map.of(LakeTableLayout.TS_ID, 0L), null,
                Map.of(LakeTableLayout.TS_ID, lower), Map.of(LakeTableLayout.TS_ID, upper));
    }

    /**
     * The partition every record of the window falls in, for the table's spec as it is now: each
     * field must be a time transform of {@code ts} that gives the window's first and last stamps the
     * same value (a window never crosses its alignment boundary).
     */
    @SuppressWarnings("unchecked")
    private static PartitionData partitionOf(Table table, Manifest m) {
        PartitionSpec spec = table.spec();
        PartitionData data = new PartitionData(spec.partitionType());
        List<PartitionField> fields = spec.fields();
        for (int i = 0; i < fields.size(); i++) {
            PartitionField f = fields.get(i);
            Object first = null;
            Object last = null;
            if (f.sourceId() == LakeTableLayout.TS_ID) {
                var bound = ((Transform<Long, Object>) f.transform()).bind(Types.TimestampType.withZone());
                first = bound.apply(m.minTs());
                last = bound.apply(m.maxTs());
            }
            if (first == null || !first.equals(last)) {
                throw new TableRefusedException("the Iceberg table " + table.name() + " of queue '" + m.queue()
                        + "' is partitioned by " + spec + ", which the lake's window k=" + m.k()
                        + " does not fall in as one partition; partition it by hour(ts) or day(ts) again");
            }
            data.set(i, first);
        }
        return data;
    }

    private static long parse(String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
