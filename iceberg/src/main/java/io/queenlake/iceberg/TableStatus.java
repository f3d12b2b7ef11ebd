package io.queenlake.iceberg;

import io.queenlake.format.model.Micros;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * How far a queue's Iceberg table holds this sink's windows, for {@code ./queen-lake status}: read
 * through the catalog as the committer reads it before an append ({@link WindowAppend#lastWindow}),
 * never creating the table or its namespace. Where its history starts is the table property
 * {@code queen.<sink>.first-window} the job records with a table's first windows; for a table of an
 * older job, the first snapshot's window while the table still keeps it.
 *
 * @param table the table's name as engines name it ({@code queen_lake.<namespace>.<table>})
 * @param exists whether the catalog has the table
 * @param lastWindow the highest window of the sink the table holds, 0 for none
 * @param appendedAtMillis when the snapshot that appended it was committed, unless it has expired
 * @param snapshots the snapshots the table keeps (bounded by the job's expiry, {@link TableUpkeep})
 * @param metadataFiles its current {@code metadata.json} and the previous ones it still lists
 * @param firstWindow the first window the table holds, 0 where that is not known
 * @param firstRecorded whether the job recorded {@code firstWindow} (so windows below it are left
 *     out by {@code QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS}, as intended)
 * @param backfillWindows the job's {@code QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS}
 */
public record TableStatus(String table, String sink, boolean exists, long lastWindow, OptionalLong appendedAtMillis,
        int snapshots, int metadataFiles, long firstWindow, boolean firstRecorded, long backfillWindows) {

    /** The table of {@code sink}'s {@code queue}; a missing table or namespace is a table not created yet. */
    public static TableStatus read(Catalog catalog, CatalogLink link, String sink, String queue) {
        Optional<Table> existing = link.existingTable(catalog, queue);
        if (existing.isEmpty()) {
            return new TableStatus(CatalogLink.NAME + "." + link.tableOf(queue), sink, false, 0, OptionalLong.empty(), 0, 0,
                    0, false, link.backfillWindows());
        }
        Table table = existing.get();
        WindowAppend.LastWindow last = WindowAppend.lastWindow(table, sink, queue);
        OptionalLong at = last.appendedBy().map(s -> OptionalLong.of(s.timestampMillis())).orElse(OptionalLong.empty());
        int snapshots = 0;
        for (org.apache.iceberg.Snapshot ignored : table.snapshots()) {
            snapshots++;
        }
        int metadataFiles = table instanceof org.apache.iceberg.HasTableOperations ops
                ? ops.operations().current().previousFiles().size() + 1 : 0;
        long recorded = WindowAppend.firstWindowRecorded(table, sink);
        long first = recorded > 0 ? recorded : firstOfHistory(table, sink, queue);
        return new TableStatus(table.name(), sink, true, last.k(), at, snapshots, metadataFiles, first, recorded > 0,
                link.backfillWindows());
    }

    /** The first window of the table's first snapshot, while it keeps it and this sink wrote it; else 0. */
    private static long firstOfHistory(Table table, String sink, String queue) {
        List<Snapshot> ancestry = WindowAppend.ancestry(table);
        if (ancestry.isEmpty()) {
            return 0;
        }
        Snapshot oldest = ancestry.get(ancestry.size() - 1);
        return oldest.parentId() == null && WindowAppend.wroteWindow(oldest, sink, queue)
                ? WindowAppend.windowsOf(oldest)[0] : 0;
    }

    /**
     * One line under the queue's status: the table's last window against the commit pointer's
     * {@code k}. The committer appends a window before it moves the pointer, so the table is at the
     * pointer, or one window ahead of it while a commit is under way; before it appends one, it
     * registers the committed windows the table lacks below it ({@link TableHistory}).
     */
    public String line(long pointerK) {
        StringBuilder line = new StringBuilder("  Iceberg table ").append(table).append(": ");
        if (!exists || lastWindow == 0) {
            line.append(exists ? "no window of sink '" + sink + "' yet" : "not created yet");
            if (pointerK == 0) {
                return line.append(" (the job ").append(exists ? "appends" : "creates it with")
                        .append(" the first window it commits)").toString();
            }
            long from = TableHistory.firstWindowFor(pointerK + 1, backfillWindows);
            line.append(", where the lake is committed through k=").append(pointerK).append(": the job ")
                    .append(exists ? "registers" : "creates it with");
            if (from <= pointerK) {
                line.append(" ").append(TableCheck.windows(from, pointerK)).append(" before");
            } else {
                line.append(" no earlier window (QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS=0) when");
            }
            return line.append(" it appends its next window (or check QUEEN_LAKE_ICEBERG_NAMESPACE and --sink)")
                    .toString();
        }
        line.append("through window k=").append(lastWindow);
        appendedAtMillis.ifPresent(ms -> line.append(" (appended ").append(Micros.render(ms * 1000)).append(")"));
        if (lastWindow == pointerK) {
            line.append(", as the commit pointer");
        } else if (lastWindow == pointerK + 1) {
            line.append(", one window ahead of the commit pointer: the job moves the pointer to k=").append(lastWindow)
                    .append(" next");
        } else if (lastWindow > pointerK) {
            line.append(", beyond the commit pointer's k=").append(pointerK)
                    .append(": run ./queen-lake verify, which names what wrote it");
        } else {
            line.append(", behind the commit pointer's k=").append(pointerK).append(": it lacks ")
                    .append(TableCheck.windows(lastWindow + 1, pointerK)).append(" of the lake's 1..").append(pointerK)
                    .append(", committed without the catalog; the job registers them before it appends its next window");
        }
        history(line, pointerK);
        line.append("; ").append(snapshots).append(" snapshot(s)");
        if (metadataFiles > 0) {
            line.append(", ").append(metadataFiles).append(" metadata file(s)");
        }
        return line.toString();
    }

    /** Where the table's history starts, against the lake's window 1. */
    private void history(StringBuilder line, long pointerK) {
        long lakeLast = Math.max(pointerK, lastWindow);
        if (firstWindow == 0) {
            line.append("; where its history starts is not recorded (a table of an older job whose first snapshot"
                    + " expired): ./queen-lake verify names any window it lacks");
        } else if (firstWindow > 1 && firstRecorded) {
            line.append("; its history starts at window ").append(firstWindow)
                    .append(" (QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS), as intended");
        } else if (firstWindow > 1) {
            line.append("; it lacks ").append(TableCheck.windows(1, firstWindow - 1)).append(" of the lake's 1..")
                    .append(lakeLast).append(", unless they were written before QUEEN_S3_FORMAT=parquet (a table made by"
                            + " an older job, which did not register the windows before its first; ./queen-lake verify"
                            + " tells): drop the table, and the job creates it again with them before its next window");
        }
    }
}
