package io.queenlake.devstack.catalog;

import static io.queenlake.devstack.catalog.QueueTableShape.BY_HOUR;
import static io.queenlake.devstack.catalog.QueueTableShape.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clients append to one table through {@link DevCatalog}, as another engine and the job do
 * (issue 27, item 4): a plain fast append by one, then appends with a summary and a property in
 * one transaction by the other, each accepted, on a catalog kept in a folder.
 */
class DevCatalogTwoWritersTest {

    private static final TableIdentifier ORDERS = TableIdentifier.of(Namespace.of("queen"), "orders");

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
    void anotherClientsAppendLeavesTheNextClientsAppendsAccepted(@TempDir Path dataDir) throws Exception {
        try (DevCatalog catalog = DevCatalog.start(DevCatalogOptions.builder().s3(s3).dataDir(dataDir).build());
                RESTCatalog job = client(catalog, "job");
                RESTCatalog other = client(catalog, "other");
                RESTCatalog reader = client(catalog, "reader")) {
            job.createNamespace(ORDERS.namespace());
            Table jobTable = job.buildTable(ORDERS, SCHEMA).withPartitionSpec(BY_HOUR)
                    .withSortOrder(SortOrder.builderFor(SCHEMA).asc("partition").asc("offset").build())
                    .withProperties(Map.of("queen.queue", "orders"))
                    .create();
            appendWindow(jobTable, 1);

            Table otherTable = other.loadTable(ORDERS);
            otherTable.newFastAppend().appendFile(file(otherTable, "foreign")).commit();

            for (long k = 2; k <= 6; k++) {
                appendWindow(jobTable, k);
            }

            Table reloaded = reader.loadTable(ORDERS);
            assertThat(reloaded.properties()).containsEntry("queen.default.last-window", "6");
            assertThat(reloaded.snapshots()).hasSize(7);
        }
        assertThat(dataDir.resolve("catalog.db-journal")).doesNotExist();
        assertThat(Files.exists(dataDir.resolve("catalog.db"))).isTrue();
    }

    /** What the job's committer does for window k: one transaction, a fast append with a summary and a property. */
    private static void appendWindow(Table table, long k) {
        table.refresh();
        Transaction tx = table.newTransaction();
        AppendFiles append = tx.newFastAppend();
        append.appendFile(file(table, "w" + k));
        append.set("queen.sink", "default").set("queen.queue", "orders").set("queen.window", Long.toString(k));
        append.commit();
        tx.updateProperties().set("queen.default.last-window", Long.toString(k)).commit();
        tx.commitTransaction();
    }

    private static DataFile file(Table table, String name) {
        PartitionData hour = new PartitionData(table.spec().partitionType());
        hour.set(0, 490_000);
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .withPartition(hour)
                .build();
    }

    private static RESTCatalog client(DevCatalog catalog, String name) {
        RESTCatalog client = new RESTCatalog();
        client.initialize(name, catalog.clientProperties());
        return client;
    }
}
