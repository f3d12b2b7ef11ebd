package io.queenlake.devstack.catalog;

import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.rest.RESTCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DevCatalog} answers nested namespaces, which the REST spec joins with {@code %1F} in a
 * path, as Iceberg's reference REST server does: a missing one is a 404 with an ErrorResponse, so an
 * engine asking for {@code queen.orders.snapshots} falls back to the metadata table of {@code
 * queen.orders}, and a nested one can be created, listed and hold tables.
 */
class DevCatalogNamespacesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Namespace QUEEN = Namespace.of("queen");
    private static final TableIdentifier ORDERS = TableIdentifier.of(QUEEN, "orders");
    private static final Schema SCHEMA = new Schema(required(1, "id", Types.LongType.get()));

    @TempDir
    static Path s3Dir;

    private static EmbeddedS3 s3;
    private static DevCatalog catalog;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(s3Dir).accessKey("k").secretKey("s").bucket("lake").build());
        catalog = DevCatalog.start(DevCatalogOptions.builder().s3(s3).build());
    }

    @AfterAll
    static void stop() {
        catalog.close();
        s3.close();
    }

    @Test
    void aMissingNestedNamespaceIsA404ErrorResponseNotA400Page() throws Exception {
        HttpResponse<String> table = send("GET", "/v1/namespaces/queen%1Forders/tables/snapshots");
        HttpResponse<String> namespace = send("GET", "/v1/namespaces/queen%1Forders");
        HttpResponse<String> namespaceHead = send("HEAD", "/v1/namespaces/queen%1Forders");
        HttpResponse<String> tableHead = send("HEAD", "/v1/namespaces/queen%1Forders/tables/snapshots");

        assertErrorResponse(table, 404, Set.of("NoSuchNamespaceException", "NoSuchTableException"));
        assertErrorResponse(namespace, 404, Set.of("NoSuchNamespaceException"));
        assertThat(namespaceHead.statusCode()).isEqualTo(404);
        assertThat(tableHead.statusCode()).isEqualTo(404);
    }

    @Test
    void nestedNamespacesAreCreatedListedAndHoldTablesThroughIcebergsClient() throws IOException {
        try (RESTCatalog client = client()) {
            Namespace a = Namespace.of("nest");
            Namespace ab = Namespace.of("nest", "b");
            client.createNamespace(a);
            client.createNamespace(ab);
            TableIdentifier t = TableIdentifier.of(ab, "t");
            client.createTable(t, SCHEMA);

            assertThat(client.namespaceExists(ab)).isTrue();
            assertThat(client.listNamespaces(a)).containsExactly(ab);
            assertThat(client.listTables(ab)).containsExactly(t);
            assertThat(client.loadTable(t).name()).isEqualTo("lake.nest.b.t");
            assertThat(client.tableExists(TableIdentifier.of(a, "t"))).isFalse();
        }
    }

    @Test
    void enginesProbeForQueenOrdersSnapshotsIsA404ThenTheQueueTableLoads() throws Exception {
        try (RESTCatalog client = client()) {
            if (!client.namespaceExists(QUEEN)) {
                client.createNamespace(QUEEN);
            }
            client.createTable(ORDERS, SCHEMA);

            // What Spark's SparkCatalog asks, in order, for queen_lake.queen.orders.snapshots.
            HttpResponse<String> asTable = send("GET", "/v1/namespaces/queen%1Forders/tables/snapshots");
            HttpResponse<String> baseTable = send("GET", "/v1/namespaces/queen/tables/orders");

            assertErrorResponse(asTable, 404, Set.of("NoSuchNamespaceException", "NoSuchTableException"));
            assertThat(baseTable.statusCode()).as(baseTable.body()).isEqualTo(200);
            assertThat(JSON.readTree(baseTable.body()).path("metadata-location").asText()).startsWith("s3://lake/iceberg/queen/orders/");
        }
    }

    @Test
    void theMetadataTablesOfAQueueTableLoadAndScanThroughIcebergsClient() throws IOException {
        TableIdentifier events = TableIdentifier.of(QUEEN, "events");
        try (RESTCatalog client = client()) {
            if (!client.namespaceExists(QUEEN)) {
                client.createNamespace(QUEEN);
            }
            Table table = client.createTable(events, SCHEMA);
            table.newFastAppend().appendFile(dataFile(table, "a")).commit();
            table.newFastAppend().appendFile(dataFile(table, "b")).commit();

            Table snapshots = client.loadTable(TableIdentifier.parse("queen.events.snapshots"));
            Table files = client.loadTable(TableIdentifier.parse("queen.events.files"));
            Table history = client.loadTable(TableIdentifier.parse("queen.events.history"));

            assertThat(snapshots.name()).isEqualTo("lake.queen.events.snapshots");
            assertThat(rows(snapshots)).hasSize(2);
            assertThat(rows(files)).hasSize(2);
            assertThat(rows(history)).hasSize(2);
        }
    }

    @Test
    void aNamespaceWhoseNameHoldsASlashOrAPercentIsFoundByItsEncodedPath() throws IOException {
        try (RESTCatalog client = client()) {
            Namespace odd = Namespace.of("odd/one", "50%");
            client.createNamespace(Namespace.of("odd/one"));
            client.createNamespace(odd);
            TableIdentifier t = TableIdentifier.of(odd, "t");
            client.createTable(t, SCHEMA);

            assertThat(client.namespaceExists(odd)).isTrue();
            assertThat(client.loadNamespaceMetadata(odd)).isNotNull();
            assertThat(client.listTables(odd)).containsExactly(t);
            assertThat(client.tableExists(t)).isTrue();
        }
    }

    private static RESTCatalog client() {
        RESTCatalog client = new RESTCatalog();
        client.initialize("lake", catalog.clientProperties());
        return client;
    }

    /** A data file the scans of the metadata tables only name: none of them opens it. */
    private static DataFile dataFile(Table table, String name) {
        return DataFiles.builder(table.spec())
                .withPath(table.location() + "/data/" + name + ".parquet")
                .withFormat(FileFormat.PARQUET)
                .withFileSizeInBytes(100)
                .withRecordCount(1)
                .build();
    }

    /** The rows of a metadata table, as an engine reads them: from its scan's data tasks. */
    private static List<StructLike> rows(Table metadataTable) throws IOException {
        List<StructLike> rows = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks = metadataTable.newScan().planFiles()) {
            for (FileScanTask task : tasks) {
                try (CloseableIterable<StructLike> taskRows = task.asDataTask().rows()) {
                    taskRows.forEach(rows::add);
                }
            }
        }
        return rows;
    }

    private static HttpResponse<String> send(String method, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(catalog.url() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static void assertErrorResponse(HttpResponse<String> response, int code, Set<String> types) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(code);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        JsonNode error = JSON.readTree(response.body()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(code);
        assertThat(error.path("type").asText()).isIn(types);
    }
}
