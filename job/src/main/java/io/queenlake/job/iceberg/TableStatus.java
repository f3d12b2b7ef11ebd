package io.queenlake.job.iceberg;

import io.queenlake.format.model.Micros;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * How far a queue's Iceberg table holds this sink's windows, for {@code ./queen-lake status}: read
 * through the catalog as the committer reads it before an append ({@link WindowAppend#lastWindow}),
 * never creating the table or its namespace.
 *
 * @param table the table's name as engines name it ({@code queen_lake.<namespace>.<table>})
 * @param exists whether the catalog has the table
 * @param lastWindow the highest window of the sink the table holds, 0 for none
 * @param appendedAtMillis when the snapshot that appended it was committed, unless it has expired
 * @param snapshots the snapshots the table keeps (bounded by the job's expiry, {@link TableUpkeep})
 * @param metadataFiles its current {@code metadata.json} and the previous ones it still lists
 */
public record TableStatus(String table, String sink, boolean exists, long lastWindow, OptionalLong appendedAtMillis,
        int snapshots, int metadataFiles) {

    /** The table of {@code sink}'s {@code queue}; a missing table or namespace is a table not created yet. */
    public static TableStatus read(Catalog catalog, CatalogLink link, String sink, String queue) {
        Optional<Table> existing = link.existingTable(catalog, queue);
        if (existing.isEmpty()) {
            return new TableStatus(CatalogLink.NAME + "." + link.tableOf(queue), sink, false, 0, OptionalLong.empty(), 0, 0);
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
        return new TableStatus(table.name(), sink, true, last.k(), at, snapshots, metadataFiles);
    }

    /**
     * One line under the queue's status: the table's last window against the commit pointer's
     * {@code k}. The committer appends a window before it moves the pointer, so the table is at the
     * pointer, or one window ahead of it while a commit is under way.
     */
    public String line(long pointerK) {
        StringBuilder line = new StringBuilder("  Iceberg table ").append(table).append(": ");
        if (!exists || lastWindow == 0) {
            line.append(exists ? "no window of sink '" + sink + "' yet" : "not created yet");
            return (pointerK == 0 ? line.append(" (the job ").append(exists ? "appends" : "creates it with")
                    .append(" the first window it commits)")
                    : line.append(", where the lake is committed through k=").append(pointerK).append(": windows 1..")
                            .append(pointerK).append(" were committed without the catalog, or check"
                                    + " QUEEN_LAKE_ICEBERG_NAMESPACE and --sink")).toString();
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
            line.append(", behind the commit pointer's k=").append(pointerK).append(": windows ").append(lastWindow + 1)
                    .append("..").append(pointerK).append(" were committed without the catalog");
        }
        line.append("; ").append(snapshots).append(" snapshot(s)");
        if (metadataFiles > 0) {
            line.append(", ").append(metadataFiles).append(" metadata file(s)");
        }
        return line.toString();
    }
}
