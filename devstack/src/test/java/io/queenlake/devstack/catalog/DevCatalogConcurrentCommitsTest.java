package io.queenlake.devstack.catalog;

import static io.queenlake.devstack.catalog.QueueTableShape.BY_HOUR;
import static io.queenlake.devstack.catalog.QueueTableShape.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, item 4: a dev catalog started again on its folder takes the commits of two clients at
 * once (the job and another engine), as Iceberg's REST server does, and keeps them for its next
 * start. Before {@link CatalogConnections}, the second client's commits met the cursor Iceberg's
 * JDBC catalog leaves open at its start and were answered {@code 500 Unknown failure}
 * ({@code SQLITE_BUSY}), every one of them: the foreign-snapshot stall.
 */
@Timeout(180)
class DevCatalogConcurrentCommitsTest {

    private static final Namespace QUEEN = Namespace.of("queen");
    private static final int COMMITS = 12;

    @TempDir
    static Path s3Dir;

    private static EmbeddedS3 s3;

    @BeforeAll
    static void startS3() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(s3Dir).accessKey("k").secretKey("s").bucket("lake").build());
    }

    @AfterAll
    static void stopS3() {
        s3.close();
    }

    @Test
    void aCatalogStartedAgainOnItsFolderTakesTwoClientsCommitsAtOnceAndKeepsThem(@TempDir Path dataDir)
            throws Exception {
        List<TableIdentifier> tables = List.of(TableIdentifier.of(QUEEN, "orders"), TableIdentifier.of(QUEEN, "other"));
        try (DevCatalog first = start(dataDir); RESTCatalog setup = client(first, "setup")) {
            setup.createNamespace(QUEEN);
            for (TableIdentifier id : tables) {
                setup.buildTable(id, SCHEMA).withPartitionSpec(BY_HOUR).create();
            }
        }

        List<String> failures = new CopyOnWriteArrayList<>();
        try (DevCatalog again = start(dataDir)) {
            List<Thread> writers = new ArrayList<>();
            for (TableIdentifier id : tables) {
                writers.add(new Thread(() -> appendAll(again, id, failures), "writer-" + id.name()));
            }
            writers.forEach(Thread::start);
            for (Thread writer : writers) {
                writer.join();
            }
        }
        assertThat(failures).as("commits refused").isEmpty();
        assertThat(dataDir.resolve("catalog.db-journal")).as("no write of the catalog's database left open")
                .doesNotExist();

        try (DevCatalog third = start(dataDir); RESTCatalog reader = client(third, "reader")) {
            for (TableIdentifier id : tables) {
                assertThat(reader.loadTable(id).snapshots()).as("%s after a third start", id).hasSize(COMMITS);
            }
        }
    }

    private static void appendAll(DevCatalog catalog, TableIdentifier id, List<String> failures) {
        try (RESTCatalog client = client(catalog, id.name())) {
            Table table = client.loadTable(id);
            for (int n = 1; n <= COMMITS; n++) {
                try {
                    table.refresh();
                    table.newFastAppend().appendFile(file(table, id.name() + "-" + n)).commit();
                } catch (RuntimeException e) {
                    failures.add(id + " commit " + n + ": " + e);
                }
            }
        } catch (Exception e) {
            failures.add(id + ": " + e);
        }
    }

    private static DevCatalog start(Path dataDir) {
        return DevCatalog.start(DevCatalogOptions.builder().s3(s3).dataDir(dataDir).build());
    }

    private static DataFile file(Table table, String name) {
        PartitionData hour = new PartitionData(table.spec().partitionType());
        hour.set(0, 490_000);
        return DataFiles.builder(table.spec()).withPath(table.location() + "/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET).withFileSizeInBytes(100).withRecordCount(1).withPartition(hour).build();
    }

    private static RESTCatalog client(DevCatalog catalog, String name) {
        RESTCatalog client = new RESTCatalog();
        client.initialize(name, catalog.clientProperties());
        return client;
    }
}
