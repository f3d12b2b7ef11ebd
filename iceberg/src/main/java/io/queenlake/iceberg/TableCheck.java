package io.queenlake.iceberg;

import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/**
 * Checks a queue's Iceberg table against the lake's manifests ({@code ./queen-lake verify}): the
 * table holds the lake's windows, each once, as the lake does. A window is in the table when every
 * object its manifest names is one of the table's data files, with the manifest's record count;
 * the table must hold every committed window from where its history starts (1, or the window the
 * table property {@code queen.<sink>.first-window} names where {@code QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS}
 * left older ones out, which is said as intended) to the pointer's, and nothing else: no data
 * file named by no manifest, none listed twice, no window appended twice by this sink's
 * snapshots, none beyond the pointer but the one being committed. A table someone else rewrote
 * (snapshots not of this sink) no longer names the lake's objects: its windows are then the job's
 * own record of them ({@code first-window}..{@code last-window}) and only its record count is
 * compared. Windows the lake wrote as JSONL (before {@code QUEEN_S3_FORMAT=parquet}) are in the lake
 * only, which is said as intended.
 *
 * @param windows the windows the table holds, oldest first
 * @param notes what is so by intent (a history that starts after window 1, a rewritten table)
 * @param problems what is wrong, empty when the table is exact
 */
public record TableCheck(String table, List<Long> windows, long records, List<String> notes, List<String> problems) {

    /** One line for {@code verify}: the table, the windows it holds, its records. */
    public String summary() {
        String held = windows.isEmpty() ? "no window" : windows.size() + " windows ("
                + windows.get(0) + ".." + windows.get(windows.size() - 1) + ")";
        return "  Iceberg table " + table + ": " + held + ", " + records + " records"
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes))
                + (problems.isEmpty() ? "" : ", " + problems.size() + " problems");
    }

    /**
     * @param manifests the queue's committed manifests by {@code k}, and the one above the
     *     pointer where the lake has it (a commit under way may have appended it already)
     * @param pathOfKey an object's path as the table names it
     */
    public static TableCheck of(Table table, String sink, String queue, long committedK, Map<Long, Manifest> manifests,
            Function<String, String> pathOfKey) {
        String name = table.name();
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        Map<Long, Integer> appended = new TreeMap<>();
        boolean foreign = false;
        for (Snapshot s : WindowAppend.ancestry(table)) {
            if (WindowAppend.wroteWindow(s, sink, queue)) {
                long[] run = WindowAppend.windowsOf(s);
                for (long k = run[0]; k <= run[1]; k++) {
                    appended.merge(k, 1, Integer::sum);
                }
            } else {
                foreign = true;
            }
        }
        SortedSet<Long> twice = new TreeSet<>();
        appended.forEach((k, n) -> {
            if (n > 1) {
                twice.add(k);
            }
        });
        if (!twice.isEmpty()) {
            problems.add((twice.size() == 1 ? "window " + twice.first() + " is" : "windows " + ranges(twice) + " are")
                    + " appended twice to " + name);
        }

        long last = WindowAppend.lastAppended(table, sink, queue);
        long recordedFirst = WindowAppend.firstWindowRecorded(table, sink);
        long start = recordedFirst > 0 ? recordedFirst : 1;
        Map<String, Integer> listed = new HashMap<>();
        Map<String, Long> recordsOf = new HashMap<>();
        long records = 0;
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask t : tasks) {
                String path = t.file().location();
                listed.merge(path, 1, Integer::sum);
                recordsOf.put(path, t.file().recordCount());
                records += t.file().recordCount();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }

        TreeSet<Long> held = new TreeSet<>();
        if (foreign) {
            for (long k = start; k <= last; k++) {
                held.add(k);
            }
            notes.add("rewritten by another writer (snapshots not of sink '" + sink + "'), so its data files are not"
                    + " compared with the lake's objects");
        } else {
            held.addAll(windowsOfFiles(name, manifests, pathOfKey, listed, recordsOf, start, last, problems));
        }

        TreeSet<Long> lacking = new TreeSet<>();
        TreeSet<Long> notParquet = new TreeSet<>();
        for (long k = start; k <= committedK; k++) {
            Manifest m = manifests.get(k);
            if (m != null && !WindowAppend.inParquet(m)) {
                notParquet.add(k);
            } else if (!held.contains(k)) {
                lacking.add(k);
            }
        }
        if (!notParquet.isEmpty()) {
            notes.add((notParquet.size() == 1 ? "window " : "windows ") + ranges(notParquet) + " of the lake are not"
                    + " Parquet (written before QUEEN_S3_FORMAT=parquet): in the lake only, as intended");
        }
        if (!lacking.isEmpty()) {
            problems.add(lacks(name, lacking, committedK, last));
        } else if (recordedFirst > 1) {
            notes.add("its history starts at window " + recordedFirst + " (QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS): "
                    + windows(1, recordedFirst - 1) + " left out as intended");
        }
        long beyond = Math.max(last, held.isEmpty() ? 0 : held.last());
        if (beyond > committedK + 1) {
            problems.add(name + " holds window " + beyond + ", beyond the commit pointer's k=" + committedK);
        }
        long expectedRecords = 0;
        for (long k : held) {
            Manifest m = manifests.get(k);
            expectedRecords += m == null ? 0 : m.records();
        }
        if (records != expectedRecords && held.stream().allMatch(manifests::containsKey)) {
            problems.add(name + " holds " + records + " records where the manifests of the windows it holds say "
                    + expectedRecords);
        }
        return new TableCheck(name, List.copyOf(held), records, List.copyOf(notes), List.copyOf(problems));
    }

    /**
     * The windows whose every object is one of the table's data files (a window without objects:
     * those the job's record of the table covers), naming each data file the lake does not account
     * for once with its record count.
     */
    private static SortedSet<Long> windowsOfFiles(String name, Map<Long, Manifest> manifests,
            Function<String, String> pathOfKey, Map<String, Integer> listed, Map<String, Long> recordsOf, long start,
            long last, List<String> problems) {
        Map<String, ManifestObject> objects = new HashMap<>();
        Map<String, Long> windowOf = new HashMap<>();
        for (Manifest m : manifests.values()) {
            if (!WindowAppend.inParquet(m)) {
                continue; // never a data file: the table cannot read it
            }
            for (ManifestObject o : m.objects()) {
                String path = pathOfKey.apply(o.key());
                objects.put(path, o);
                windowOf.put(path, m.k());
            }
        }
        Map<Long, Integer> objectsHeld = new HashMap<>();
        List<String> unknown = new ArrayList<>();
        for (Map.Entry<String, Integer> e : listed.entrySet()) {
            String path = e.getKey();
            ManifestObject o = objects.get(path);
            if (o == null) {
                unknown.add(path);
                continue;
            }
            long k = windowOf.get(path);
            objectsHeld.merge(k, 1, Integer::sum);
            if (e.getValue() > 1) {
                problems.add(name + " lists data file " + path + " (window " + k + ") " + e.getValue()
                        + " times: its records are in the table " + e.getValue() + " times");
            }
            if (recordsOf.get(path) != o.records()) {
                problems.add(name + " says data file " + path + " (window " + k + ") holds " + recordsOf.get(path)
                        + " records where its manifest says " + o.records());
            }
        }
        if (!unknown.isEmpty()) {
            problems.add(name + " has " + unknown.size() + " data files no manifest names, e.g. " + unknown.get(0));
        }
        SortedSet<Long> held = new TreeSet<>();
        for (Manifest m : manifests.values()) {
            if (!WindowAppend.inParquet(m)) {
                continue;
            }
            int n = m.objects().size();
            if (n == 0 ? m.k() >= start && m.k() <= last : objectsHeld.getOrDefault(m.k(), 0) == n) {
                held.add(m.k());
            }
        }
        return held;
    }

    private static String lacks(String name, SortedSet<Long> lacking, long committedK, long last) {
        String what = "Iceberg table " + name + " lacks " + (lacking.size() == 1 ? "window " : "windows ")
                + ranges(lacking) + " of the lake's 1.." + committedK;
        if (lacking.first() > last) {
            return what + ": committed without the catalog; the job registers them before it appends its next window";
        }
        return what + ": drop the table, and the job creates it again with the lake's windows (as"
                + " QUEEN_LAKE_ICEBERG_BACKFILL_WINDOWS allows) before it appends its next one";
    }

    /** {@code window 7} or {@code windows 1..121}. */
    public static String windows(long from, long to) {
        return from == to ? "window " + from : "windows " + from + ".." + to;
    }

    /** {@code 1..121, 300, 302..310}. */
    static String ranges(SortedSet<Long> ks) {
        StringBuilder out = new StringBuilder();
        Long from = null;
        long to = 0;
        for (long k : ks) {
            if (from != null && k == to + 1) {
                to = k;
                continue;
            }
            if (from != null) {
                out.append(out.length() > 0 ? ", " : "").append(from == to ? Long.toString(from) : from + ".." + to);
            }
            from = k;
            to = k;
        }
        if (from != null) {
            out.append(out.length() > 0 ? ", " : "").append(from == to ? Long.toString(from) : from + ".." + to);
        }
        return out.toString();
    }
}
