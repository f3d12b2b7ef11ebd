package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.catalog.DevCatalog;
import io.queenlake.devstack.catalog.DevCatalogOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.iceberg.QueueTableName;
import io.queenlake.connector.sink.CrashPoint;
import io.queenlake.iceberg.IcebergRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every committed window of the lake is one Iceberg append to its queue's table, exactly once
 * (docs/ARCHITECTURE.md "Iceberg tables"): the table read through the catalog with Iceberg's own
 * generic reader holds exactly the lake's records, an hour filter plans only that hour's files, and a
 * crash on either side of the table's commit, a restart without state, an older savepoint or a catalog
 * stopped for a while never appends a window twice nor loses one.
 * The catalogs here: a JDBC catalog on a SQLite file, and the embedded REST catalog
 * ({@code ./queen-lake dev-catalog}) with its warehouse in the embedded S3 server.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class IcebergTableITCase {

    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> PARTITIONS = List.of("p 0", "p/1", "\ud83d\ude00 2");
    static final WriterSettings PARQUET = new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.MERGED,
            Align.HOUR, LakeJob.NO_CUT);
    static final long HOUR_MS = 3_600_000L;

    private static PipelineRig rig;
    private static CatalogLink catalog;
    private static EmbeddedS3 s3;
    private static DevCatalog restServer;
    private static CatalogLink rest;

    @BeforeAll
    static void start() throws Exception {
        rig = new PipelineRig(dir);
        catalog = CatalogLink.jdbc("jdbc:sqlite:" + dir.resolve("catalog.db"), dir.resolve("warehouse").toUri().toString(),
                "queen", null, null, CatalogLink.lakeFileIo(null, null, false, null, null));
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        restServer = startRest(0);
        rest = CatalogLink.rest(restServer.url().toString(), restServer.warehouse(), "queen", null, null,
                CatalogLink.lakeFileIo(s3.endpoint().toString(), EmbeddedS3.REGION, true, "k", "s"));
    }

    private static DevCatalog startRest(int port) {
        return DevCatalog.start(DevCatalogOptions.builder().s3(s3).dataDir(dir.resolve("rest-catalog")).port(port).build());
    }

    @AfterAll
    static void stop() {
        restServer.close();
        s3.close();
        rig.close();
    }

    @Test
    void theTableHoldsExactlyTheLakesRecordsOneAppendPerWindowAndAnHourFilterPlansOnlyThatHour() throws Exception {
        String queue = "orders/EU";
        SeededProducer producer = new SeededProducer(rig.client, 61, List.of(queue), PARTITIONS);
        // Two hours of broker time before the job starts: windows in two hour partitions.
        producer.pushRoundsOnClock(rig, 2, HOUR_MS);
        rig.advanceClock(2_000);
        LakeJob job = LakeJob.of("iceberg-exact", rig.fileRoot("iceberg-exact"), List.of(queue)).writer(PARQUET)
                .withCatalog(catalog);

        RunningJob running = rig.start(job);
        producer.pushRounds(6, 100);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        long k = rig.awaitCovered(running, logs).get(queue).k();
        running.cancel();

        rig.assertExactlyOnce(job, logs);
        Catalog c = catalog.open();
        try {
            Table table = c.loadTable(TableIdentifier.of(Namespace.of("queen"), QueueTableName.of(queue)));
            assertThat(QueueTableName.of(queue)).as("the queue's table name").matches("orders_eu_[0-9a-f]{8}");
            assertThat(table.properties()).containsEntry("queen.queue", queue).containsEntry("queen.sink", job.sink());
            assertThat(rowsOf(table)).as("the table's rows, as Iceberg's reader reads them")
                    .containsExactlyInAnyOrderElementsOf(rowsOf(logs.get(queue)));
            assertThat(windowsAppended(table, job.sink())).as("one snapshot per committed window, in k order")
                    .isEqualTo(range(1, k));

            long firstHour = logs.get(queue).stream().mapToLong(LogRecord::tsMicros).min().orElseThrow() / 3_600_000_000L;
            long from = firstHour * 3_600_000_000L;
            List<String> planned = new ArrayList<>();
            try (CloseableIterable<FileScanTask> tasks = table.newScan()
                    .filter(Expressions.and(Expressions.greaterThanOrEqual("ts", from),
                            Expressions.lessThan("ts", from + 3_600_000_000L))).planFiles()) {
                tasks.forEach(t -> planned.add(t.file().location()));
            }
            assertThat(planned).as("the files an hour filter plans").isNotEmpty()
                    .allMatch(path -> path.contains("/hour=" + String.format("%02d", firstHour % 24) + "/"));
            long allFiles = 0;
            try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                for (FileScanTask ignored : tasks) {
                    allFiles++;
                }
            }
            assertThat(allFiles).as("the files of both hours").isGreaterThan(planned.size());
            System.out.printf("iceberg: %d windows of queue '%s' in %s, %d rows; an hour filter planned %d of %d files%n",
                    k, queue, table.name(), logs.get(queue).size(), planned.size(), allFiles);

        } finally {
            close(c);
        }
    }

    /** The two new points of the crash matrix: before the table's commit, and after it before the pointer. */
    enum AroundTheTable {
        BETWEEN_MANIFEST_AND_POINTER,
        BETWEEN_TABLE_AND_POINTER
    }

    @ParameterizedTest
    @EnumSource(AroundTheTable.class)
    void aCrashOnEitherSideOfTheTablesCommitAppendsEveryWindowOnce(AroundTheTable point) throws Exception {
        String queue = "crash-" + point.ordinal();
        SeededProducer producer = new SeededProducer(rig.client, 67, List.of(queue), PARTITIONS);
        LakeJob job = LakeJob.of("iceberg-crash-" + point.ordinal(), rig.fileRoot("iceberg-crash-" + point.ordinal()),
                List.of(queue)).writer(PARQUET).withCatalog(catalog)
                .crashOnceAt(CrashPoint.valueOf(point.name()), 2);

        RunningJob running = rig.start(job);
        producer.pushRounds(30, 100);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        long k = rig.awaitCovered(running, logs).get(queue).k();
        running.cancel();

        assertThat(k).as("the crash came at window 2, the job went on").isGreaterThanOrEqualTo(2);
        rig.assertExactlyOnce(job, logs);
        assertTableExact(queue, job.sink(), logs.get(queue), k);
    }

    @Test
    void aRestartWithoutStateAppendsNoWindowTwice() throws Exception {
        String queue = "restarted";
        SeededProducer producer = new SeededProducer(rig.client, 71, List.of(queue), PARTITIONS);
        LakeJob job = LakeJob.of("iceberg-restart", rig.fileRoot("iceberg-restart"), List.of(queue)).writer(PARQUET)
                .withCatalog(catalog);

        RunningJob first = rig.start(job);
        producer.pushRounds(10, 100);
        rig.awaitPointer(first, queue, 1);
        first.cancel();
        RunningJob second = rig.start(job);
        producer.pushRounds(10, 100);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        long k = rig.awaitCovered(second, logs).get(queue).k();
        second.cancel();

        rig.assertExactlyOnce(job, logs);
        assertTableExact(queue, job.sink(), logs.get(queue), k);
    }

    @Test
    void anOlderSavepointRestoredAfterNewerWindowsWereAppendedAppendsNoWindowTwice() throws Exception {
        String queue = "old-savepoint";
        SeededProducer producer = new SeededProducer(rig.client, 79, List.of(queue), PARTITIONS);
        LakeJob job = LakeJob.of("iceberg-savepoint", rig.fileRoot("iceberg-savepoint"), List.of(queue)).writer(PARQUET)
                .withCatalog(catalog);

        RunningJob first = rig.start(job);
        producer.pushRounds(10, 100);
        rig.awaitPointer(first, queue, 1);
        String savepoint = first.savepoint(dir.resolve("savepoints"));
        long atSavepoint = rig.pointers(job.sink()).read(queue).k();
        producer.pushRounds(25, 100);
        rig.awaitPointer(first, queue, atSavepoint + 2);
        first.cancel();
        long atCancel = rig.pointers(job.sink()).read(queue).k();

        RunningJob second = rig.start(job.restoredFrom(savepoint));
        producer.pushRounds(5, 100);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        long k = rig.awaitCovered(second, logs).get(queue).k();
        second.cancel();

        System.out.printf("iceberg: a savepoint at k=%d restored after windows through k=%d were appended; k=%d at the end%n",
                atSavepoint, atCancel, k);
        assertThat(atCancel).as("windows appended after the savepoint").isGreaterThanOrEqualTo(atSavepoint + 2);
        rig.assertExactlyOnce(job, logs);
        assertTableExact(queue, job.sink(), logs.get(queue), k);
    }

    @Test
    void theRestCatalogStoppedForAWhileLosesNothingAndAppendsNothingTwice() throws Exception {
        String queue = "through-an-outage";
        SeededProducer producer = new SeededProducer(rig.client, 73, List.of(queue), PARTITIONS);
        LakeJob job = LakeJob.of("iceberg-outage", rig.fileRoot("iceberg-outage"), List.of(queue)).writer(PARQUET)
                .withCatalog(rest).restarts(5);

        RunningJob running = rig.start(job);
        producer.pushRounds(10, 100);
        long before = rig.awaitPointer(running, queue, 1).k();
        int port = restServer.url().getPort();
        restServer.close();
        producer.pushRounds(20, 100); // two seconds of windows the catalog cannot take
        long during = rig.pointers(job.sink()).read(queue).k();
        restServer = startRest(port);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        long k = rig.awaitCovered(running, logs).get(queue).k();
        long failed = committerTotal(running, "tableAppendsFailed");
        long appended = counter(running, queue, "tableAppends");
        running.cancel();

        System.out.printf("iceberg: the REST catalog stopped at pointer k=%d; the pointer stood at k=%d without it and"
                + " reached k=%d once it was back; tableAppendsFailed %d, tableAppends %d%n", before, during, k, failed,
                appended);
        assertThat(failed).as("appends the stopped catalog failed, each retried").isPositive();
        assertThat(during).as("the pointer waits for the table").isLessThanOrEqualTo(before + 1);
        rig.assertExactlyOnce(job, logs);
        assertTableExact(rest, queue, job.sink(), logs.get(queue), k);
    }

    private static void assertTableExact(String queue, String sink, List<LogRecord> log, long k) throws IOException {
        assertTableExact(catalog, queue, sink, log, k);
    }

    private static void assertTableExact(CatalogLink link, String queue, String sink, List<LogRecord> log, long k)
            throws IOException {
        Catalog c = link.open();
        try {
            Table table = c.loadTable(TableIdentifier.of(Namespace.of("queen"), QueueTableName.of(queue)));
            assertThat(windowsAppended(table, sink)).as("each window appended once, in k order").isEqualTo(range(1, k));
            assertThat(rowsOf(table)).as("the table's rows").containsExactlyInAnyOrderElementsOf(rowsOf(log));
        } finally {
            close(c);
        }
    }

    /** The queue's counter, summed over the committer's subtasks, as a metric reporter reads it. */
    private static long counter(RunningJob job, String queue, String metric) {
        long sum = 0;
        for (Map.Entry<String, org.apache.flink.metrics.Metric> m : REPORTER.findMetrics(job.client().getJobID(),
                "\\." + metric + "$").entrySet()) {
            if (m.getKey().endsWith(".queue." + queue + "." + metric)) {
                sum += ((org.apache.flink.metrics.Counter) m.getValue()).getCount();
            }
        }
        return sum;
    }

    /** A committer's total, not per queue (as {@code tableAppendsFailed}). */
    private static long committerTotal(RunningJob job, String metric) {
        long sum = 0;
        for (Map.Entry<String, org.apache.flink.metrics.Metric> m : REPORTER.findMetrics(job.client().getJobID(),
                "\\." + metric + "$").entrySet()) {
            if (!m.getKey().contains(".queue.")) {
                sum += ((org.apache.flink.metrics.Counter) m.getValue()).getCount();
            }
        }
        return sum;
    }

    private static void close(Catalog c) throws IOException {
        if (c instanceof java.io.Closeable closeable) {
            closeable.close();
        }
    }

    /** The windows the table's snapshots say they appended, oldest first, each as often as it was appended. */
    private static List<Long> windowsAppended(Table table, String sink) {
        TreeMap<Long, Snapshot> bySequence = new TreeMap<>();
        table.snapshots().forEach(s -> bySequence.put(s.sequenceNumber(), s));
        List<Long> windows = new ArrayList<>();
        for (Snapshot s : bySequence.values()) {
            if (sink.equals(s.summary().get("queen.sink"))) {
                windows.add(Long.parseLong(s.summary().get("queen.window")));
            }
        }
        return windows;
    }

    private static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            out.add(i);
        }
        return out;
    }

    private static List<String> rowsOf(Table table) throws IOException {
        return IcebergRows.of(table);
    }

    private static List<String> rowsOf(List<LogRecord> log) {
        return IcebergRows.of(log);
    }
}
