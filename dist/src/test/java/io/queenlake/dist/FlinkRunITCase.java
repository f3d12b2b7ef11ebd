package io.queenlake.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Submits the built {@code flink run} jar ({@code target/queen-lake-<version>.jar}) with Flink's own
 * command-line front end ({@code CliFrontend run -d}) in a separate JVM, with {@code FLINK_CONF_DIR}
 * pointing at the configuration of a cluster this test starts (a MiniCluster on a fixed REST port),
 * against the dev broker and a {@code file://} lake, and checks that the lake is written: a manifest
 * and the commit pointer appear. Runs in Maven's {@code integration-test} phase, after {@code package}.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class FlinkRunITCase {

    private static final String TENANT = "00000000-0000-0000-0000-000000000001";
    private static final Path TARGET = FlinkRunJar.TARGET;
    private static final Path JAR = FlinkRunJar.JAR;

    @TempDir
    static Path dir;

    private static MiniCluster cluster;
    private static DevBroker broker;
    private static QueenClient client;
    private static Path confDir;

    @BeforeAll
    static void startClusterAndBroker() throws Exception {
        assertJarIsBuilt();
        int restPort;
        try (ServerSocket free = new ServerSocket(0)) {
            restPort = free.getLocalPort();
        }
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, restPort);
        cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
        cluster.start();
        confDir = Files.createDirectories(dir.resolve("conf"));
        Files.writeString(confDir.resolve("config.yaml"), String.join("\n",
                "rest.address: 127.0.0.1",
                "rest.port: " + restPort,
                "parallelism.default: 1",
                "execution.checkpointing.interval: 500 ms",
                ""));
        FlinkRunJar.writeCliLogging(confDir);
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /**
     * The shaded jar holds the job and its libraries, and none of Flink, logging, the devstack, Hadoop or
     * the S3 plugin's SDK; it stays under 50 MB (it was 111 MB with Hadoop and every platform's natives).
     */
    private static void assertJarIsBuilt() throws IOException {
        FlinkRunJar.assertBuilt();
        assertThat(Files.size(JAR)).as("the flink run jar's size").isLessThan(50L << 20);
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.queenlake.job.LakeJob");
            for (String present : List.of("io/queenlake/job/LakeJob.class", "io/queenlake/job/config/SettingsLoader.class",
                    "io/queenlake/source/QueenSource.class", "io/queenlake/format/window/WriterSettings.class",
                    "org/apache/parquet/hadoop/ParquetFileWriter.class", "com/github/luben/zstd/Zstd.class",
                    // The Iceberg tables' catalog clients and S3FileIO, whose AWS SDK v2 no cluster provides
                    // (the S3 plugin's SDK stays inside the plugin).
                    "org/apache/iceberg/rest/RESTCatalog.class", "org/apache/iceberg/aws/s3/S3FileIO.class",
                    "software/amazon/awssdk/services/s3/S3Client.class")) {
                assertThat(jar.getEntry(present)).as(present).isNotNull();
            }
            List<String> strays = jar.stream().map(e -> e.getName())
                    .filter(n -> n.startsWith("org/apache/flink/") || n.startsWith("io/queenlake/devstack/")
                            || n.startsWith("org/gaul/")
                            || n.startsWith("org/apache/logging/log4j/") || n.startsWith("org/slf4j/")
                            || n.startsWith("com/amazonaws/")
                            // Writing Parquet and S3FileIO need no Hadoop; the S3 plugin brings its own.
                            || n.startsWith("org/apache/hadoop/")
                            // The launcher's commands and the SQLite driver (and its natives) are not a cluster's.
                            || n.startsWith("io/queenlake/job/cli/") || n.startsWith("org/sqlite/"))
                    .limit(5).toList();
            assertThat(strays).as("classes the cluster provides or the flink run jar must not carry").isEmpty();
        }
    }

    @Test
    void flinkRunSubmitsTheJarAndTheLakeGetsAManifestAndThePointer() throws Exception {
        push("orders", 0, 20);
        Path lakeDir = Files.createDirectories(dir.resolve("lake-folder"));

        Submission submission = flinkRun(Map.of("QUEEN_S3_BUCKET", "lake", "QUEEN_URL", broker.url().toString()),
                "--queues", "orders",
                "--endpoint", lakeDir.toUri().toString(),
                "--start", "earliest",
                "--max-window-ms", "1000",
                "--safe-guard-ms", "0",
                "--discovery-interval-ms", "100",
                "--lease-ttl-ms", "3000");

        assertThat(submission.exitCode()).as(submission.output()).isZero();
        assertThat(submission.output()).contains("Job has been submitted with JobID")
                .contains("queen-lake settings: QUEEN_S3_QUEUES=orders [arg]").contains("QUEEN_S3_BUCKET=lake [env]");
        JobStatusMessage job = onlyRunningJob();
        assertThat(job.getJobName()).isEqualTo("queen-lake: orders -> " + lakeDir.toUri() + "lake/queen");

        push("orders", 20, 40);
        SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, TENANT, "orders");
        Path manifests = lakeDir.resolve("lake").resolve(sidecars.manifestDirectory());
        CommitPointers pointers = new CommitPointers(client, "default");
        Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
        Optional<Committed> pointer = Optional.empty();
        while (Instant.now().isBefore(deadline) && (pointer.isEmpty() || files(manifests).isEmpty())) {
            Thread.sleep(200);
            pointer = pointers.read("orders").pointer();
        }
        assertThat(pointer).as("the commit pointer of queue orders").isPresent();
        assertThat(files(manifests)).as("manifests in " + manifests)
                .contains(lakeDir.resolve("lake").resolve(pointer.get().manifest()));
        cluster.cancelJob(job.getJobId()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aSettingsErrorStopsTheSubmissionWithOneLine() throws Exception {
        Submission submission = flinkRun(Map.of("QUEEN_S3_BUCKET", "lake"),
                "--queues", "orders", "--max-window-ms", "420000");

        assertThat(submission.exitCode()).as(submission.output()).isEqualTo(2);
        assertThat(submission.output()).contains("queen-lake: QUEEN_S3_MAX_WINDOW_MS=420000 does not divide one hour");
        assertThat(cluster.listJobs().get(30, TimeUnit.SECONDS).stream()
                .filter(j -> j.getJobName().contains("420000") || !j.getJobState().isGloballyTerminalState()))
                .isEmpty();
    }

    @Test
    void aSqliteCatalogIsRefusedAtSubmissionSinceTheJarCarriesNoDriverForIt() throws Exception {
        Submission submission = flinkRun(Map.of("QUEEN_S3_BUCKET", "lake"), "--queues", "orders", "--format", "parquet",
                "--iceberg-catalog", "jdbc", "--iceberg-uri", "jdbc:sqlite:/tmp/catalog.db",
                "--iceberg-warehouse", "s3://lake/iceberg");

        assertThat(submission.exitCode()).as(submission.output()).isEqualTo(2);
        assertThat(submission.output()).contains("queen-lake: QUEEN_LAKE_ICEBERG_URI='jdbc:sqlite:/tmp/catalog.db'")
                .contains("on a cluster use jdbc:postgresql:// or a REST catalog");
    }

    @Test
    void aBrokerThatDoesNotAnswerStopsTheSubmissionAtTheProbe() throws Exception {
        Path lakeDir = Files.createDirectories(dir.resolve("unprobed-lake"));
        Submission submission = flinkRun(Map.of("QUEEN_S3_BUCKET", "lake"), "--queues", "orders",
                "--endpoint", lakeDir.toUri().toString(), "--queen-url", "http://127.0.0.1:1");

        assertThat(submission.exitCode()).as(submission.output()).isEqualTo(3);
        assertThat(submission.output()).contains("queen-lake: the broker at http://127.0.0.1:1 refused the connection"
                + " (nothing listens on 127.0.0.1:1): check the host and port in QUEEN_URL (--queen-url) and that the"
                + " server is up.");
        assertThat(cluster.listJobs().get(30, TimeUnit.SECONDS).stream()
                .filter(j -> !j.getJobState().isGloballyTerminalState())).isEmpty();
    }

    private static void push(String queue, int from, int to) {
        List<PushItem> items = new ArrayList<>();
        for (int i = from; i < to; i++) {
            items.add(PushItem.of(queue, "p" + (i % 3), "tx-" + i, "{\"order\":" + i + "}"));
        }
        client.push(items);
    }

    private static JobStatusMessage onlyRunningJob() throws Exception {
        Collection<JobStatusMessage> jobs = cluster.listJobs().get(30, TimeUnit.SECONDS);
        List<JobStatusMessage> running = jobs.stream().filter(j -> !j.getJobState().isGloballyTerminalState()).toList();
        assertThat(running).hasSize(1);
        return running.get(0);
    }

    private static List<Path> files(Path folder) throws IOException {
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> listed = Files.list(folder)) {
            return listed.filter(p -> p.toString().endsWith(".json")).toList();
        }
    }

    private record Submission(int exitCode, String output) {}

    /**
     * {@code flink run -d <jar> args} in its own JVM, as bin/flink runs it: CliFrontend with
     * FLINK_CONF_DIR, a Flink distribution's jars on the class path, the job only in the jar.
     */
    private static Submission flinkRun(Map<String, String> env, String... jobArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlog4j.configurationFile=" + confDir.resolve("log4j-cli.properties"),
                "--add-opens", "java.base/java.lang=ALL-UNNAMED", "--add-opens", "java.base/java.util=ALL-UNNAMED",
                "-cp", flinkClassPath(),
                "org.apache.flink.client.cli.CliFrontend", "run", "-d", JAR.toString()));
        command.addAll(List.of(jobArgs));
        Path output = Files.createTempFile(dir, "flink-run", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("QUEEN_") || k.startsWith("FLINK_"));
        builder.environment().put("FLINK_CONF_DIR", confDir.toString());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("flink run did not return within 120 s:\n" + Files.readString(output));
        }
        return new Submission(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private static String flinkClassPath() throws IOException {
        // A Flink distribution's lib/ (SessionCluster.LIB): the job's libraries come from the jar alone.
        try (Stream<Path> jars = Files.list(SessionCluster.LIB)) {
            List<String> entries = jars.map(Path::toString).sorted().toList();
            assertThat(entries).as("Flink's jars in %s", SessionCluster.LIB).anyMatch(p -> p.contains("flink-clients"));
            return String.join(File.pathSeparator, entries);
        }
    }
}
