package io.queenlake.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.NameEscaping;
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
import io.queenlake.connector.testutils.FlinkLakeFiles;
import io.queenlake.connector.testutils.FlinkS3ForTests;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole pipeline for every format, compression, layout and alignment, on {@code s3://} (the
 * embedded S3 server) and {@code file://}: every record of two queues by seven partitions (names that need escaping,
 * one outside the BMP) is in exactly one object once, checked against the log read back from the
 * broker, with keys of the shape the alignment and layout promise, manifests naming the settings,
 * and DuckDB counting the same records. One job per case over one seeded log of several windows.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EveryFormatAndLayoutITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    static final List<String> QUEUES = List.of("orders/eu west", "caff\u00e8 \u2615");
    static final List<String> PARTITIONS = List.of("cust 0", "c/1", "\ud83d\ude00-2", "\u00fc%3", "Default", "a#b?c", "x\\y");

    private static PipelineRig rig;
    private static EmbeddedS3 s3;
    private static Map<String, List<LogRecord>> log;

    @BeforeAll
    static void pushOneLogOfSeveralWindows() throws Exception {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        FlinkS3ForTests.initialize(s3);
        rig = new PipelineRig(dir);
        SeededProducer producer = new SeededProducer(rig.client, 5, QUEUES, PARTITIONS);
        producer.pushRoundsOnClock(rig, 36, 130); // about 4.7 s of broker time: five or six windows
        log = rig.readLogs(producer);
        assertThat(log.values().stream().mapToLong(List::size).sum()).isEqualTo(producer.queued());
    }

    @AfterAll
    static void stopServers() {
        rig.close();
        s3.close();
    }

    /** Two cases on {@code s3://} (multipart staging), the rest on {@code file://} (hidden files renamed), to stay quick. */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("jsonl-zstd", "s3",
                        new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.MERGED, Align.HOUR, LakeJob.NO_CUT)),
                Arguments.of("jsonl-gzip", "file",
                        new WriterSettings(new Format.Jsonl(Compression.GZIP), Layout.PER_PARTITION, Align.DAY, LakeJob.NO_CUT)),
                Arguments.of("jsonl-none", "file",
                        new WriterSettings(new Format.Jsonl(Compression.NONE), Layout.MERGED, Align.NONE, LakeJob.NO_CUT)),
                Arguments.of("parquet-zstd", "file",
                        new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.PER_PARTITION, Align.HOUR, LakeJob.NO_CUT)),
                Arguments.of("parquet-snappy", "s3",
                        new WriterSettings(new Format.Parquet(ParquetCodec.SNAPPY), Layout.MERGED, Align.DAY, LakeJob.NO_CUT)),
                // A 2 KiB target cuts every window into several numbered ones.
                Arguments.of("jsonl-zstd-cut", "file",
                        new WriterSettings(new Format.Jsonl(Compression.ZSTD), Layout.PER_PARTITION, Align.NONE, 2048)));
    }

    @ParameterizedTest(name = "{0} on {1}://")
    @MethodSource("cases")
    void everyPushedRecordIsInExactlyOneObjectOnce(String name, String scheme, WriterSettings writer) throws Exception {
        String root = scheme.equals("s3") ? "s3://lake/" + name : rig.fileRoot(name);
        LakeJob job = LakeJob.of("fmt-" + name, root, QUEUES).writer(writer);
        RunningJob running = rig.start(job);
        rig.awaitCovered(running, log);
        running.cancel();

        long windows = rig.assertExactlyOnce(job, log);
        FlinkLakeFiles files = new FlinkLakeFiles(job.root());
        Map<String, String> image = LakeImage.of(files, Prefix.DEFAULT.value());
        Map<String, String> data = LakeImage.dataObjects(image);
        Pattern shape = keyShape(writer);
        assertThat(data.keySet()).allSatisfy(key -> assertThat(key).matches(shape));
        for (String queue : QUEUES) {
            SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, PipelineRig.TENANT, queue);
            Manifest first = ManifestJson.read(files.read(sidecars.manifest(1)));
            assertThat(first.format()).isEqualTo(writer.format().name());
            assertThat(first.compression()).isEqualTo(writer.format().codecName());
            assertThat(first.layout()).isEqualTo(writer.layout());
            assertThat(first.writer()).isEqualTo(writer.describe());
        }
        if (writer.targetBytes() < LakeJob.NO_CUT) {
            assertThat(windows).as("windows committed with a 2 KiB target").isGreaterThan(4L * QUEUES.size());
        }
        assertThat(duckDbCount(localDir(job), writer)).isEqualTo(log.values().stream().mapToLong(List::size).sum());
        System.out.printf("format case %s on %s://: %d records of %d queues in %d windows, %d data objects%n", name, scheme,
                log.values().stream().mapToLong(List::size).sum(), QUEUES.size(), windows, data.size());
    }

    /** The data key shape of docs/LAKE-FORMAT.md "Keys" for these settings. */
    private static Pattern keyShape(WriterSettings writer) {
        String ext = writer.format() instanceof Format.Parquet ? "parquet" : switch (writer.format().codecName()) {
            case "zstd" -> "jsonl\\.zst";
            case "gzip" -> "jsonl\\.gz";
            default -> "jsonl";
        };
        String hour = writer.align().hasHourDirectory() ? "hour=\\d{2}/" : "";
        String slice = writer.layout() == Layout.PER_PARTITION ? "-p-[A-Za-z0-9._%-]+-\\d{12}-\\d{12}" : "";
        String queues = String.join("|", QUEUES.stream().map(q -> Pattern.quote(NameEscaping.escape(q))).toList());
        return Pattern.compile("queen/tenant=" + PipelineRig.TENANT + "/queue=(" + queues + ")/dt=\\d{4}-\\d{2}-\\d{2}/"
                + hour + "w-\\d{10}-\\d{16}-\\d{16}" + slice + "\\." + ext);
    }

    /** Where the lake's objects lie as plain files: the embedded S3 server keeps them so too. */
    private static Path localDir(LakeJob job) {
        return job.root().startsWith("s3://lake/")
                ? s3.bucketDir().resolve(job.root().substring("s3://lake/".length()))
                : Path.of(java.net.URI.create(job.root()));
    }

    /** Records DuckDB reads from the lake's data objects. */
    private static long duckDbCount(Path lake, WriterSettings writer) throws Exception {
        String base = lake.resolve("queen") + "/tenant=*/queue=*/dt=*/";
        String glob = base + (writer.align().hasHourDirectory() ? "hour=*/" : "") + "*";
        String from = writer.format() instanceof Format.Parquet
                ? "read_parquet('" + glob + "')"
                : "read_json('" + glob + "', format='newline_delimited', columns={partition:'VARCHAR', \"offset\":'BIGINT',"
                        + " transactionId:'VARCHAR', ts:'VARCHAR', payload:'JSON'})";
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = duck.createStatement().executeQuery("SELECT count(*) FROM " + from)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
