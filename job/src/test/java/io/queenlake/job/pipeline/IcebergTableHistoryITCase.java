package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.catalog.DevCatalog;
import io.queenlake.devstack.catalog.DevCatalogOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.iceberg.CatalogLink;
import io.queenlake.iceberg.TableCheck;
import io.queenlake.iceberg.IcebergRows;
import io.queenlake.connector.verify.FlinkLakeFiles;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27, "the table equals the lake", through the whole pipeline: a queue mirrored for a while
 * without a catalog, then with one, and then through a REST catalog that restarts empty while the
 * job runs (the dev catalog keeps its tables in memory), ends with a table that holds every window
 * of the lake once, each of its objects and each record once, as {@code verify}'s check and
 * Iceberg's own reader see it: each time the job created the table, it first registered the
 * windows the lake had committed.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IcebergTableHistoryITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(new Configuration()).setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final WriterSettings PARQUET = new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.MERGED,
            Align.HOUR, LakeJob.NO_CUT);

    private static PipelineRig rig;
    private static EmbeddedS3 s3;
    private static DevCatalog restServer;

    @BeforeAll
    static void start() throws Exception {
        rig = new PipelineRig(dir);
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        restServer = DevCatalog.start(DevCatalogOptions.builder().s3(s3).build());
    }

    @AfterAll
    static void stop() {
        restServer.close();
        s3.close();
        rig.close();
    }

    @Test
    void aTableCreatedAfterTheLakeAndAgainInACatalogThatRestartedEmptyHoldsEveryWindowOfTheLakeOnce() throws Exception {
        String queue = "orders";
        SeededProducer producer = new SeededProducer(rig.client, 83, List.of(queue), List.of("p 0", "p/1", "p-2"));
        LakeJob withoutCatalog = LakeJob.of("iceberg-history", rig.fileRoot("iceberg-history"), List.of(queue))
                .writer(PARQUET);
        CatalogLink rest = CatalogLink.rest(restServer.url().toString(), restServer.warehouse(), "queen", null, null,
                CatalogLink.lakeFileIo(s3.endpoint().toString(), EmbeddedS3.REGION, true, "k", "s"));

        // 1. The lake without a catalog.
        RunningJob first = rig.start(withoutCatalog);
        producer.pushRounds(30, 100);
        long beforeCatalog = rig.awaitCovered(first, rig.readLogs(producer)).get(queue).k();
        first.cancel();

        // 2. The catalog set: the job creates the table holding the lake's windows before its next one.
        LakeJob job = withoutCatalog.withCatalog(rest).restarts(5);
        RunningJob second = rig.start(job);
        producer.pushRounds(20, 100);
        long created = rig.awaitCovered(second, rig.readLogs(producer)).get(queue).k();
        assertThat(windowsOf(rest, job, queue, created)).as("the table the job created, against the lake at k=%d", created)
                .containsExactlyElementsOf(range(1, created));

        // 3. The catalog restarts empty, as a dev catalog keeping its tables in memory does.
        int port = restServer.url().getPort();
        restServer.close();
        restServer = DevCatalog.start(DevCatalogOptions.builder().s3(s3).port(port).build());
        producer.pushRounds(20, 100);
        Map<String, List<LogRecord>> logs = rig.readLogs(producer);
        long k = rig.awaitCovered(second, logs).get(queue).k();
        second.cancel();

        System.out.printf("iceberg history: %d windows before the catalog, the table created at k=%d, created again in"
                + " the emptied catalog, k=%d at the end%n", beforeCatalog, created, k);
        rig.assertExactlyOnce(job, logs);
        assertThat(windowsOf(rest, job, queue, k)).as("the table in the emptied catalog, against the lake at k=%d", k)
                .containsExactlyElementsOf(range(1, k));
        try (Closing c = new Closing(rest.open())) {
            Table table = c.catalog.loadTable(rest.tableOf(queue));
            assertThat(IcebergRows.of(table)).as("every record of the queue once")
                    .containsExactlyInAnyOrderElementsOf(IcebergRows.of(logs.get(queue)));
        }
    }

    /** The windows the queue's table holds by verify's check, which must find nothing wrong with it. */
    private static List<Long> windowsOf(CatalogLink link, LakeJob job, String queue, long committedK) throws Exception {
        FlinkLakeFiles files = new FlinkLakeFiles(job.root());
        SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, PipelineRig.TENANT, queue);
        Map<Long, Manifest> manifests = new HashMap<>();
        for (long k = 1; k <= committedK + 1; k++) {
            byte[] body = files.read(sidecars.manifest(k));
            if (body != null) {
                manifests.put(k, ManifestJson.read(body));
            }
        }
        try (Closing c = new Closing(link.open())) {
            Table table = c.catalog.loadTable(link.tableOf(queue));
            TableCheck check = TableCheck.of(table, job.sink(), queue, committedK, manifests,
                    key -> new org.apache.flink.core.fs.Path(job.root() + "/" + key).toString());
            assertThat(check.problems()).as(check.summary()).isEmpty();
            return check.windows();
        }
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    private record Closing(Catalog catalog) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            if (catalog instanceof AutoCloseable closeable) {
                closeable.close();
            }
        }
    }
}
