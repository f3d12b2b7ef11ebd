package io.queenlake.iceberg;

import io.queenlake.connector.sink.table.CatalogUnavailableException;
import static io.queenlake.iceberg.StandInWindows.HOUR_MICROS;
import static io.queenlake.iceberg.StandInWindows.QUEUE;
import static io.queenlake.iceberg.StandInWindows.SINK;
import static io.queenlake.iceberg.StandInWindows.T;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.devstack.catalog.DevCatalog;
import io.queenlake.devstack.catalog.DevCatalogOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.model.Align;
import io.queenlake.connector.testutils.CapturedLog;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.stream.LongStream;
import org.apache.logging.log4j.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, item 4: a snapshot that another client appends to a queue's table over REST (no
 * {@code queen.*} summary) is walked past: the job's next windows are appended after it, each once,
 * none skipped, and a retry of a window appended before it is found; a catalog that keeps failing
 * shows one line per queue, and one when it answers again. Against the real dev catalog
 * ({@code ./queen-lake dev-catalog}: Iceberg's REST server over SQLite in a folder, as the demo
 * runs it), the foreign client Iceberg's own {@link RESTCatalog}, the job's side its append path
 * ({@link QueueTables}, kept open across catalog restarts as the committer keeps it). Before the
 * dev catalog's {@code CatalogConnections}, the first test failed as the issue saw it: every append
 * after the foreign client's {@code CommitStateUnknownException: Service failed: 500: Unknown failure}.
 */
@Timeout(120)
class TableForeignSnapshotTest {

    private static final int FOREIGN = 3;

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;

    @BeforeAll
    static void startS3() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
    }

    @AfterAll
    static void stopS3() {
        s3.close();
    }

    @Test
    void aSnapshotAppendedByAnotherClientIsWalkedPastAndEveryWindowIsInTheTableOnce(@TempDir Path catalogDir)
            throws Exception {
        int port = freePort();
        try (QueueTables tables = new QueueTables(link(port), SINK, "t", Align.HOUR, this::lakePath)) {
            try (DevCatalog catalog = start(catalogDir, port)) {
                for (long k = 1; k <= 3; k++) {
                    assertThat(tables.append(window(k), "manifest-" + k)).as("window %d", k).isTrue();
                }
            }
            // As in the issue: the catalog runs on a folder that already holds the table (a restart, a
            // second demo), and another client appends while the job's windows go on.
            try (DevCatalog catalog = start(catalogDir, port); RESTCatalog other = client(catalog, "other")) {
                List<RuntimeException> foreignFailures = new CopyOnWriteArrayList<>();
                Thread foreign = new Thread(() -> {
                    try {
                        Table t = other.loadTable(link(port).tableOf(QUEUE));
                        for (int n = 1; n <= FOREIGN; n++) {
                            t.newFastAppend().appendFile(foreignFile(t, n)).commit();
                        }
                    } catch (RuntimeException e) {
                        foreignFailures.add(e);
                    }
                }, "foreign-writer");
                foreign.start();
                for (long k = 4; k <= 8; k++) {
                    appendAsTheCommitterRetries(tables, k);
                }
                foreign.join();
                assertThat(foreignFailures).as("the other client's commits").isEmpty();
                for (long k = 9; k <= 10; k++) {
                    assertThat(tables.append(window(k), "manifest-" + k)).as("window %d after the foreign snapshots", k)
                            .isTrue();
                }
                assertThat(tables.append(window(3), "manifest-3")).as("window 3 retried").isFalse();
                assertThat(tables.append(window(10), "manifest-10")).as("window 10 retried").isFalse();
                assertThat(tables.lastAppended(QUEUE)).isEqualTo(10);

                Table table = other.loadTable(link(port).tableOf(QUEUE));
                assertThat(windowsBySnapshot(table).stream().filter(w -> !w.equals("-")).toList())
                        .as("the job's snapshots, oldest first").containsExactly(LongStream.rangeClosed(1, 10)
                                .mapToObj(Long::toString).toArray(String[]::new));
                assertThat(windowsBySnapshot(table)).as("the foreign snapshots among them").filteredOn("-"::equals)
                        .hasSize(FOREIGN);
                Map<String, Long> files = dataFiles(table);
                assertThat(files.values()).as("each file once").allMatch(times -> times == 1L);
                assertThat(files.keySet()).as("every window's object, and the foreign files")
                        .containsAll(LongStream.rangeClosed(1, 10).mapToObj(k -> lakePath("w-" + k + ".parquet"))
                                .toList())
                        .hasSize(10 + FOREIGN);
            }
        }
        assertThat(catalogDir.resolve("catalog.db-journal")).as("no write of the catalog's database left open")
                .doesNotExist();
    }

    @Test
    void aCatalogThatKeepsFailingShowsOneLinePerQueueAndOneWhenItAnswers(@TempDir Path catalogDir) throws Exception {
        int port = freePort();
        try (QueueTables tables = new QueueTables(link(port), SINK, "t", Align.HOUR, this::lakePath);
                CapturedLog log = new CapturedLog(CatalogOutages.class, Level.INFO)) {
            try (DevCatalog catalog = start(catalogDir, port)) {
                assertThat(tables.append(window(1), "manifest-1")).isTrue();
            }
            for (int attempt = 1; attempt <= 4; attempt++) {
                assertThatThrownBy(() -> tables.append(window(2), "manifest-2"))
                        .isInstanceOf(CatalogUnavailableException.class);
            }
            assertThat(tables.catalogFailing(QUEUE)).isTrue();
            assertThat(log.lines()).as("four failed attempts, one line").singleElement().asString()
                    .startsWith("WARN Iceberg catalog unavailable for queue 'orders': queen.orders (rest catalog http://")
                    .contains("one line when it answers");
            try (DevCatalog again = start(catalogDir, port)) {
                assertThat(tables.append(window(2), "manifest-2")).isTrue();
            }
            assertThat(log.lines()).hasSize(2);
            assertThat(log.lines().get(1)).startsWith("INFO Iceberg catalog available again for queue 'orders':"
                    + " queen.orders, after ").endsWith("and 4 failed attempts");
            assertThat(tables.catalogFailing(QUEUE)).isFalse();
        }
    }

    private static void appendAsTheCommitterRetries(QueueTables tables, long k) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                assertThat(tables.append(window(k), "manifest-" + k)).as("window %d", k).isTrue();
                return;
            } catch (CatalogUnavailableException e) {
                // A commit that met the foreign one may be retried; a stalled catalog fails every one.
                assertThat(attempt).as("attempts at window %d, the last failing with %s", k, e.getMessage())
                        .isLessThan(4);
            }
        }
    }

    private static DevCatalog start(Path catalogDir, int port) {
        return DevCatalog.start(DevCatalogOptions.builder().s3(s3).dataDir(catalogDir).port(port).build());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private String lakePath(String key) {
        return dir.resolve("lake").toUri() + key;
    }

    private static Manifest window(long k) {
        return StandInWindows.window(k, "w-" + k + ".parquet", 1_791_007_800_000_000L + k);
    }

    /** What an engine's own writer adds: a file under the table's location, a plain fast append. */
    private static DataFile foreignFile(Table table, int n) {
        PartitionData hour = new PartitionData(table.spec().partitionType());
        hour.set(0, (int) (T / HOUR_MICROS));
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/foreign-" + n + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .withPartition(hour)
                .build();
    }

    private static List<String> windowsBySnapshot(Table table) {
        TreeMap<Long, Snapshot> bySequence = new TreeMap<>();
        table.snapshots().forEach(s -> bySequence.put(s.sequenceNumber(), s));
        List<String> windows = new ArrayList<>();
        for (Snapshot s : bySequence.values()) {
            windows.add(s.summary().getOrDefault("queen.window", "-"));
        }
        return windows;
    }

    private static Map<String, Long> dataFiles(Table table) throws Exception {
        Map<String, Long> files = new HashMap<>();
        try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
            for (FileScanTask t : tasks) {
                files.merge(t.file().location(), 1L, Long::sum);
            }
        }
        return files;
    }

    private static CatalogLink link(int port) {
        return CatalogLink.rest("http://127.0.0.1:" + port, "s3://lake/iceberg", "queen", null, null,
                CatalogLink.lakeFileIo(s3.endpoint().toString(), EmbeddedS3.REGION, true, "k", "s"));
    }

    private static RESTCatalog client(DevCatalog catalog, String name) {
        RESTCatalog client = new RESTCatalog();
        client.initialize(name, catalog.clientProperties());
        return client;
    }
}
