package io.queenlake.job.iceberg;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Checks a queue's Iceberg table against the lake's manifests ({@code ./queen-lake verify}): no
 * window appended twice, none missing between the first and the last appended, none beyond the
 * pointer but the one being committed, and, unless someone else rewrote the table, exactly the
 * appended windows' objects as its data files with their record counts.
 *
 * @param windows the windows the table's snapshots appended, oldest first
 * @param problems what is wrong, empty when the table is exact
 */
public record TableCheck(String table, List<Long> windows, long records, List<String> problems) {

    /** One line for {@code verify}: the table, the windows it holds, its records. */
    public String summary() {
        String held = windows.isEmpty() ? "no window" : windows.size() + " windows ("
                + windows.get(0) + ".." + windows.get(windows.size() - 1) + ")";
        return "  Iceberg table " + table + ": " + held + ", " + records + " records"
                + (problems.isEmpty() ? "" : ", " + problems.size() + " problems");
    }

    /**
     * @param manifests the queue's committed manifests by {@code k}
     * @param pathOfKey an object's path as the table names it
     */
    public static TableCheck of(Table table, String sink, String queue, long committedK, Map<Long, Manifest> manifests,
            Function<String, String> pathOfKey) {
        List<String> problems = new ArrayList<>();
        List<Snapshot> ancestry = new ArrayList<>(WindowAppend.ancestry(table));
        Collections.reverse(ancestry);
        List<Long> windows = new ArrayList<>();
        boolean foreign = false;
        for (Snapshot s : ancestry) {
            if (WindowAppend.wroteWindow(s, sink, queue)) {
                windows.add(Long.parseLong(s.summary().get(WindowAppend.SUMMARY_WINDOW)));
            } else {
                foreign = true;
            }
        }
        Set<Long> seen = new HashSet<>();
        for (long k : windows) {
            if (!seen.add(k)) {
                problems.add("window " + k + " is appended twice to " + table.name());
            }
        }
        if (!windows.isEmpty()) {
            long first = windows.get(0);
            long last = windows.get(windows.size() - 1);
            for (long k = first; k <= Math.min(last, committedK); k++) {
                if (!seen.contains(k)) {
                    problems.add("window " + k + " is committed in the lake but missing from " + table.name());
                }
            }
            if (last > committedK + 1) {
                problems.add(table.name() + " holds window " + last + ", beyond the commit pointer's k=" + committedK);
            }
            if (last < committedK) {
                problems.add(table.name() + " ends at window " + last + " where the lake is committed through k="
                        + committedK + ": windows " + (last + 1) + ".." + committedK + " were committed without the catalog");
            }
        }
        Set<String> expected = new HashSet<>();
        long expectedRecords = 0;
        for (long k : seen) {
            Manifest m = manifests.get(k);
            if (m == null) {
                continue; // the window being committed: its manifest may be the next one
            }
            for (ManifestObject o : m.objects()) {
                expected.add(pathOfKey.apply(o.key()));
            }
            expectedRecords += m.records();
        }
        Set<String> held = new HashSet<>();
        long records = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask t : tasks) {
                held.add(t.file().location());
                records += t.file().recordCount();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!foreign) {
            Set<String> missing = new HashSet<>(expected);
            missing.removeAll(held);
            Set<String> extra = new HashSet<>(held);
            extra.removeAll(expected);
            if (!missing.isEmpty()) {
                problems.add(table.name() + " lacks " + missing.size() + " objects of its windows, e.g. " + missing.iterator().next());
            }
            if (!extra.isEmpty()) {
                problems.add(table.name() + " has " + extra.size() + " data files no manifest names, e.g. " + extra.iterator().next());
            }
        }
        if (records != expectedRecords && seen.stream().allMatch(manifests::containsKey)) {
            problems.add(table.name() + " holds " + records + " records where its windows' manifests say " + expectedRecords);
        }
        return new TableCheck(table.name(), List.copyOf(windows), records, List.copyOf(problems));
    }
}
