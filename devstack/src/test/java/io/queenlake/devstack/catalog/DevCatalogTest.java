package io.queenlake.devstack.catalog;

import static io.queenlake.devstack.catalog.QueueTableShape.BY_HOUR;
import static io.queenlake.devstack.catalog.QueueTableShape.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.rest.RESTCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DevCatalog} is a real Iceberg REST catalog: Iceberg's own client creates a table through it,
 * appends a Parquet file written to the embedded S3 server, reads the rows back, and finds the table
 * again after a restart on the same folder.
 */
class DevCatalogTest {

    /** A mirrored queue's table, as the job lays it out: one row a message, partitioned by the hour. */
    private static final Namespace QUEEN = Namespace.of("queen");

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
    void aTableAppendedThroughTheCatalogReadsBackItsRowsFromTheBucket(@TempDir Path dataDir) throws IOException {
        try (DevCatalog catalog = DevCatalog.start(options(dataDir));
                RESTCatalog client = client(catalog)) {
            Table table = createQueueTable(client, "orders");
            List<Record> rows = List.of(
                    row("p0", 0, "t-0", "2026-10-03T06:00:01Z", "{\"id\":1}"),
                    row("p0", 1, "t-1", "2026-10-03T06:59:59Z", null));

            DataFile file = writeDataFile(table, rows);
            table.newAppend().appendFile(file).commit();

            assertThat(file.location()).startsWith("s3://lake/iceberg/queen/orders/data/ts_hour=2026-10-03-06/");
            assertThat(s3.fileOf(file.location().substring("s3://lake/".length()))).isRegularFile();
            assertThat(readAll(client.loadTable(TableIdentifier.of(QUEEN, "orders")))).containsExactlyInAnyOrderElementsOf(rows);
        }
    }

    @Test
    void aRestartOnTheSameFolderKeepsTheTableAndItsSnapshot(@TempDir Path dataDir) throws IOException {
        TableIdentifier orders = TableIdentifier.of(QUEEN, "orders");
        List<Record> rows = List.of(row("p1", 7, "t-7", "2026-10-03T08:15:00Z", "x"));
        long snapshotId;
        try (DevCatalog catalog = DevCatalog.start(options(dataDir));
                RESTCatalog client = client(catalog)) {
            Table table = createQueueTable(client, "orders");
            table.newAppend().appendFile(writeDataFile(table, rows)).commit();
            snapshotId = client.loadTable(orders).currentSnapshot().snapshotId();
        }

        try (DevCatalog restarted = DevCatalog.start(options(dataDir));
                RESTCatalog client = client(restarted)) {
            assertThat(client.listTables(QUEEN)).containsExactly(orders);
            Table table = client.loadTable(orders);
            assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotId);
            assertThat(table.spec().fields()).singleElement().satisfies(f -> assertThat(f.name()).isEqualTo("ts_hour"));
            assertThat(readAll(table)).containsExactlyElementsOf(rows);
        }
    }

    @Test
    void aScanFilteredToOneHourPlansOnlyThatHoursFile(@TempDir Path dataDir) throws IOException {
        try (DevCatalog catalog = DevCatalog.start(options(dataDir));
                RESTCatalog client = client(catalog)) {
            Table table = createQueueTable(client, "orders");
            DataFile six = writeDataFile(table, List.of(row("p0", 0, "t-0", "2026-10-03T06:30:00Z", "a")));
            DataFile seven = writeDataFile(table, List.of(row("p0", 1, "t-1", "2026-10-03T07:30:00Z", "b")));
            table.newAppend().appendFile(six).appendFile(seven).commit();

            List<String> planned = new ArrayList<>();
            try (CloseableIterable<FileScanTask> tasks = table.newScan()
                    .filter(Expressions.and(
                            Expressions.greaterThanOrEqual("ts", "2026-10-03T07:00:00+00:00"),
                            Expressions.lessThan("ts", "2026-10-03T08:00:00+00:00")))
                    .planFiles()) {
                tasks.forEach(task -> planned.add(task.file().location()));
            }

            assertThat(planned).containsExactly(seven.location());
        }
    }

    @Test
    void anInMemoryCatalogServesTablesWithoutADataFolder() throws IOException {
        try (DevCatalog catalog = DevCatalog.start(DevCatalogOptions.builder().s3(s3).warehouse("s3://lake/mem").build());
                RESTCatalog client = client(catalog)) {
            Table table = createQueueTable(client, "memo");

            assertThat(table.location()).isEqualTo("s3://lake/mem/queen/memo");
            assertThat(client.tableExists(TableIdentifier.of(QUEEN, "memo"))).isTrue();
        }
    }

    @Test
    void itServesLoopbackOnlyAndAnnouncesTheWarehouse(@TempDir Path dataDir) {
        try (DevCatalog catalog = DevCatalog.start(options(dataDir))) {
            assertThat(catalog.url().getHost()).isEqualTo("127.0.0.1");
            assertThat(catalog.url().getPort()).isPositive();
            assertThat(catalog.warehouse()).isEqualTo("s3://lake/iceberg");
            assertThat(catalog.clientProperties()).containsEntry("uri", catalog.url().toString())
                    .containsEntry("s3.endpoint", s3.endpoint().toString())
                    .containsEntry("s3.path-style-access", "true")
                    .containsEntry("client.region", "us-east-1");
        }
    }

    @Test
    void aTakenPortIsRefusedWithWhatToDoInstead(@TempDir Path dataDir) {
        try (DevCatalog first = DevCatalog.start(options(dataDir))) {
            DevCatalogOptions samePort = DevCatalogOptions.builder().s3(s3).port(first.url().getPort()).build();

            assertThatThrownBy(() -> DevCatalog.start(samePort))
                    .hasMessageContaining("could not listen on 127.0.0.1:" + first.url().getPort())
                    .hasMessageContaining("pass port 0 or a free port");
        }
    }

    @Test
    void optionsRefuseAWarehouseOutsideTheBucketAndAnEndpointThatIsNoUrl() {
        assertThatThrownBy(() -> DevCatalogOptions.builder().s3(s3).warehouse("s3://other/iceberg").build())
                .hasMessageContaining("not in bucket 'lake'").hasMessageContaining("s3://lake/iceberg");
        assertThatThrownBy(() -> DevCatalogOptions.builder().s3Endpoint(URI.create("localhost:9000")).build())
                .hasMessageContaining("not an http(s) URL");
        assertThat(DevCatalogOptions.builder().s3(s3).secretKey("hidden").build().toString()).doesNotContain("hidden");
    }

    private static DevCatalogOptions options(Path dataDir) {
        return DevCatalogOptions.builder().s3(s3).dataDir(dataDir).build();
    }

    /** Iceberg's own REST client, with the S3 settings any client of the catalog brings. */
    private static RESTCatalog client(DevCatalog catalog) {
        RESTCatalog client = new RESTCatalog();
        client.initialize("lake", catalog.clientProperties());
        return client;
    }

    private static Table createQueueTable(RESTCatalog client, String name) {
        if (!client.namespaceExists(QUEEN)) {
            client.createNamespace(QUEEN);
        }
        return client.createTable(TableIdentifier.of(QUEEN, name), SCHEMA, BY_HOUR);
    }

    private static Record row(String partition, long offset, String transactionId, String ts, String payload) {
        Record row = GenericRecord.create(SCHEMA);
        row.setField("partition", partition);
        row.setField("offset", offset);
        row.setField("transaction_id", transactionId);
        row.setField("ts", OffsetDateTime.parse(ts));
        row.setField("payload", payload);
        return row;
    }

    /** One Parquet file of rows of one hour, written to the bucket through the table's own FileIO. */
    private static DataFile writeDataFile(Table table, List<Record> rows) throws IOException {
        PartitionKey hour = new PartitionKey(table.spec(), table.schema());
        // The hour transform reads ts as micros; the wrapper shows it the generic OffsetDateTime that way.
        hour.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(rows.get(0)));
        String location = table.locationProvider().newDataLocation(table.spec(), hour, UUID.randomUUID() + ".parquet");
        DataWriter<Record> writer = Parquet.writeData(table.io().newOutputFile(location))
                .schema(table.schema())
                .createWriterFunc(GenericParquetWriter::create)
                .withSpec(table.spec())
                .withPartition(hour)
                .build();
        try (writer) {
            rows.forEach(writer::write);
        }
        return writer.toDataFile();
    }

    private static List<Record> readAll(Table table) {
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
            read.forEach(rows::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
