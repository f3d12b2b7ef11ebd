package io.queenlake.bench.iceberg;

import io.queenlake.connector.sink.table.CatalogUnavailableException;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.iceberg.QueueTables;
import io.queenlake.iceberg.TableUpkeep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 27: what appending one window to a queue's Iceberg table costs as the table ages, with the
 * job's upkeep (the shipped defaults) and without it (today's behaviour before issue 27: no expiry,
 * no manifest merging, Iceberg's 100 metadata versions), in one run. Each window is committed
 * through the job's own append path ({@link QueueTables#append}) into a JDBC catalog on SQLite in a
 * temporary folder, its warehouse on local disk through {@link CountingFileIO}; the data files are
 * the lake's stand-ins (never opened). At each mark it prints the mean over the last
 * {@code SAMPLE} windows before it: milliseconds, file requests (reads, writes, deletes) and bytes
 * of Iceberg metadata read and written per append.
 *
 * <pre>
 * java -Xmx3g -Dbench.dir=/dev/shm -cp "bench/target/queen-lake-bench-0.1.0.jar:bench/target/lib/*" \
 *   io.queenlake.bench.iceberg.TableAgeBench [windows=50000] [baseline-windows=5000]
 * </pre>
 */
public final class TableAgeBench {

    private static final long HOUR_MICROS = 3_600_000_000L;
    private static final long T = 1_796_000L * HOUR_MICROS;
    /** 100 ms windows: 36,000 an hour partition, so the table's partitions stay few, as with short windows. */
    private static final long W = 100_000L;
    /** A merge of the small manifests comes every 100 appends: a sample of 100 holds one. */
    private static final int SAMPLE = 100;
    private static final long[] MARKS = {100, 1_000, 5_000, 10_000, 50_000};

    /** File requests and bytes, per window. */
    record Io(double reads, double writes, double deletes, double kbRead, double kbWritten) {
        static Io between(long[] from, long[] to, double n) {
            return new Io((to[0] - from[0]) / n, (to[1] - from[1]) / n, (to[2] - from[2]) / n,
                    (to[3] - from[3]) / n / 1024.0, (to[4] - from[4]) / n / 1024.0);
        }

        String cells() {
            return String.format("%.1f/%.1f/%.1f | %.0f | %.0f", reads, writes, deletes, kbRead, kbWritten);
        }
    }

    /**
     * What one arm measured at a mark, per window: the append's time and files (the commit's path),
     * the upkeep's files (its own thread, off that path), and the table's shape then.
     */
    record Cost(long windows, double ms, Io append, Io upkeep, String table) {}

    private TableAgeBench() {}

    public static void main(String[] args) throws Exception {
        int windows = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
        int baselineWindows = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        // The shipped upkeep as it is: windows far faster than its expiry interval are what its
        // snapshot maximum is for.
        TableUpkeep maintained = TableUpkeep.DEFAULTS;
        TableUpkeep none = new TableUpkeep(Long.MAX_VALUE / 4, 100_000_000, 100_000_000, 100, Integer.MAX_VALUE,
                Long.MAX_VALUE / 4, 0);
        System.out.printf("TableAgeBench: %d windows with the upkeep (the defaults: %s), %d without%n",
                windows, maintained, baselineWindows);
        Map<Long, Cost> without = run("without upkeep", none, baselineWindows);
        Map<Long, Cost> with = run("with upkeep", maintained, windows);
        print(with, without);
    }

    private static Map<Long, Cost> run(String arm, TableUpkeep upkeep, int windows) throws Exception {
        // A folder in memory (-Dbench.dir=/dev/shm) and SQLite without fsync: the disk is not what is measured.
        Path dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"))),
                "table-age-bench");
        Path lake = Files.createDirectories(dir.resolve("lake"));
        Map<String, String> io = new LinkedHashMap<>(CatalogLink.lakeFileIo(null, null, false, null, null));
        io.put("io-impl", CountingFileIO.class.getName());
        CatalogLink link = CatalogLink.jdbc("jdbc:sqlite:" + dir.resolve("catalog.db") + "?synchronous=OFF&journal_mode=WAL",
                dir.resolve("warehouse").toUri().toString(), "queen", null, null, io).withUpkeep(upkeep);
        Map<Long, Cost> costs = new LinkedHashMap<>();
        long started = System.nanoTime();
        try (QueueTables tables = new QueueTables(link, "default", "t", Align.NONE,
                key -> lake.resolve(key).toUri().toString())) {
            long sampleNanos = 0;
            long[] sampleFrom = null;
            long[] upkeepFrom = null;
            int sampledWindows = 0;
            for (long k = 1; k <= windows; k++) {
                boolean sampled = isSampled(k, windows);
                if (sampled && sampleFrom == null) {
                    sampleFrom = CountingFileIO.Counts.APPEND.now();
                    upkeepFrom = CountingFileIO.Counts.UPKEEP.now();
                    sampleNanos = 0;
                    sampledWindows = 0;
                }
                long t0 = System.nanoTime();
                appendRetrying(tables, window(k));
                if (sampled) {
                    sampleNanos += System.nanoTime() - t0;
                    sampledWindows++;
                }
                if (isMark(k, windows)) {
                    double n = sampledWindows;
                    Cost c = new Cost(k, sampleNanos / 1e6 / n,
                            Io.between(sampleFrom, CountingFileIO.Counts.APPEND.now(), n),
                            Io.between(upkeepFrom, CountingFileIO.Counts.UPKEEP.now(), n), shape(link));
                    costs.put(k, c);
                    sampleFrom = null;
                    System.out.printf("  %s: %,d windows after %.0f s: %.1f ms; append r/w/d, KB read, KB written %s;"
                            + " upkeep %s; table: %s%n", arm, k, (System.nanoTime() - started) / 1e9, c.ms(),
                            c.append().cells(), c.upkeep().cells(), c.table());
                }
            }
        }
        Path metadata = dir.resolve("warehouse/queen/orders/metadata");
        try (var files = Files.list(metadata)) {
            long[] count = new long[2];
            files.filter(p -> !p.getFileName().toString().startsWith(".")).forEach(p -> {
                count[0]++;
                count[1] += p.toFile().length();
            });
            System.out.printf("  %s: metadata folder after %,d windows: %,d files, %.1f MB%n", arm, windows, count[0],
                    count[1] / 1e6);
        }
        return costs;
    }

    /** The table as a reader finds it now: snapshots, manifests of the current one, current metadata.json. */
    private static String shape(CatalogLink link) throws Exception {
        org.apache.iceberg.catalog.Catalog catalog = link.open();
        try {
            org.apache.iceberg.Table table = catalog.loadTable(link.tableOf("orders"));
            int snapshots = 0;
            for (Object ignored : table.snapshots()) {
                snapshots++;
            }
            String current = ((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation();
            return String.format("%d snapshots, %d manifests, metadata.json %.0f KB", snapshots,
                    table.currentSnapshot().allManifests(table.io()).size(),
                    Files.size(Path.of(java.net.URI.create(current))) / 1024.0);
        } finally {
            if (catalog instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
    }

    /** A mark is one of MARKS at or below the run's length, or its last window. */
    private static boolean isMark(long k, int windows) {
        for (long m : MARKS) {
            if (m == k && m <= windows) {
                return true;
            }
        }
        return k == windows;
    }

    /** The windows before a mark, the table's creation (window 1) aside. */
    private static boolean isSampled(long k, int windows) {
        if (k == 1) {
            return false;
        }
        for (long m : MARKS) {
            if (m <= windows && k > m - SAMPLE && k <= m) {
                return true;
            }
        }
        return k > windows - SAMPLE;
    }

    private static void appendRetrying(QueueTables tables, Manifest m) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                tables.append(m, "manifest-" + m.k());
                return;
            } catch (io.queenlake.connector.sink.table.CatalogUnavailableException e) {
                // An append that met the expiry's commit: the committer retries it the same way.
                if (attempt >= 10) {
                    throw e;
                }
            }
        }
    }

    private static Manifest window(long k) {
        long tStart = T + (k - 1) * W;
        return new Manifest("default", "t", "orders", k, tStart, tStart + W, "parquet", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged("k-" + k + ".parquet", 20, 3, "aa")), 3, 20, 1, tStart, tStart + W - 1,
                List.of(), "queen-lake/bench", null);
    }

    private static void print(Map<Long, Cost> with, Map<Long, Cost> without) {
        System.out.println();
        System.out.println("Per window appended (means over the windows before each mark); requests are reads/writes/deletes.");
        System.out.println();
        System.out.println("| windows | with upkeep: append ms | append requests | KB read | KB written | upkeep requests"
                + " (its thread) | KB read | KB written | table | without: ms | requests | KB read | KB written |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|");
        List<Long> ks = new ArrayList<>(with.keySet());
        without.keySet().stream().filter(k -> !ks.contains(k)).forEach(ks::add);
        ks.sort(Long::compare);
        for (long k : ks) {
            Cost w = with.get(k);
            Cost o = without.get(k);
            System.out.printf("| %,d | %s | %s |%n", k,
                    w == null ? "- | - | - | - | - | - | - | -"
                            : String.format("%.1f | %s | %s | %s", w.ms(), w.append().cells(), w.upkeep().cells(), w.table()),
                    o == null ? "- | - | - | -" : String.format("%.1f | %s", o.ms(), o.append().cells()));
        }
        Cost first = with.values().iterator().next();
        Cost last = new ArrayList<>(with.values()).get(with.size() - 1);
        System.out.printf("%nwith upkeep, last (%,d) / first (%,d): append %.2fx ms, %.2fx KB read, %.2fx KB written;"
                + " append and upkeep together %.2fx KB read, %.2fx KB written%n", last.windows(), first.windows(),
                last.ms() / first.ms(), last.append().kbRead() / first.append().kbRead(),
                last.append().kbWritten() / first.append().kbWritten(),
                (last.append().kbRead() + last.upkeep().kbRead()) / (first.append().kbRead() + first.upkeep().kbRead()),
                (last.append().kbWritten() + last.upkeep().kbWritten())
                        / (first.append().kbWritten() + first.upkeep().kbWritten()));
        Cost wLast = new ArrayList<>(without.values()).get(without.size() - 1);
        Cost wFirst = without.values().iterator().next();
        System.out.printf("without upkeep, last (%,d) / first: %.2fx ms, %.2fx KB read, %.2fx KB written%n",
                wLast.windows(), wLast.ms() / wFirst.ms(), wLast.append().kbRead() / wFirst.append().kbRead(),
                wLast.append().kbWritten() / wFirst.append().kbWritten());
    }

}
