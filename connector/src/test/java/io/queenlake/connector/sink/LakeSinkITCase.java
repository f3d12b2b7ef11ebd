package io.queenlake.connector.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpect;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.sink.committer.LakeCommitter;
import io.queenlake.connector.sink.committer.RecordingCommitRequest;
import io.queenlake.connector.sink.writer.LakeWriter;
import io.queenlake.connector.testutils.FlinkLakeFiles;
import io.queenlake.connector.testutils.FlinkS3ForTests;
import io.queenlake.connector.testutils.LakeAssertions;
import io.queenlake.connector.testutils.LakeChecker;
import io.queenlake.connector.testutils.TestWindows;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.devstack.s3.EmbeddedS3;
import io.queenlake.devstack.s3.EmbeddedS3Options;
import io.queenlake.devstack.s3.WriteHold;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.Layout;
import io.queenlake.format.object.Format;
import io.queenlake.format.parquet.ParquetCodec;
import io.queenlake.format.window.WriterSettings;
import io.queenlake.source.testlog.CapturedLog;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.function.ThrowingRunnable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The lake sink on a MiniCluster against the dev broker, the local file system and the embedded
 * S3 server: windows land committed in k order with manifests and the pointer, nothing is visible
 * before its commit, a foreign pointer stops the job, an S3 outage is ridden out (and logged once),
 * and one queue's failing uploads or slow bucket hold back no other queue and no checkpoint. (What the
 * S3 file system sends with every upload under the job's encryption settings: the job's
 * {@code ServerSideEncryptionITCase}.)
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LakeSinkITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @TempDir
    static Path dir;

    private static EmbeddedS3 s3;
    private static S3Client sdk;
    private static DevBroker broker;
    private static QueenClient client;

    @BeforeAll
    static void startServers() throws Exception {
        s3 = EmbeddedS3.start(EmbeddedS3Options.builder().dir(dir.resolve("s3")).accessKey("k").secretKey("s")
                .bucket("lake").build());
        sdk = FlinkS3ForTests.sdk(s3);
        FlinkS3ForTests.initialize(s3);
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = SinkJobs.client(broker.url());
    }

    @AfterAll
    static void stopServers() {
        sdk.close();
        s3.close();
        broker.close();
    }

    private static ObservedPointer pointer(String sink, String queue) {
        return new CommitPointers(client, sink).read(queue);
    }

    @Test
    void windowsLandInKOrderWithManifestsPointerAndCheckpointsOnTheLocalFileSystem() throws Exception {
        String root = dir.toUri().toString() + "local-lake";
        TestWindows world = new TestWindows(List.of("orders", "eu été/1"), 7, 9);
        LakeSink sink = SinkJobs.sink(root, broker.url()).sinkName("local")
                .writerSettings(new WriterSettings(new Format.Jsonl(Compression.GZIP), Layout.PER_PARTITION, Align.HOUR, 1 << 20))
                .build();

        SinkJobs.run(sink, world, 0);

        FlinkLakeFiles files = new FlinkLakeFiles(root);
        LakeAssertions.assertLakeHoldsEveryWindowOnce(files, Prefix.DEFAULT, world, q -> pointer("local", q));
        for (String queue : world.queues()) {
            SidecarKeys sidecars = new SidecarKeys(Prefix.DEFAULT, world.tenant(), queue);
            Committed committed = pointer("local", queue).pointer().orElseThrow();
            assertThat(committed.manifest()).isEqualTo(sidecars.manifest(7));
            assertThat(committed.tEnd()).isEqualTo(TestWindows.BASE_MICROS + 7 * TestWindows.WINDOW_MICROS);
            assertThat(ManifestJson.read(files.read(sidecars.manifest(2))).lost()).hasSize(1);
            assertThat(files.list(sidecars.checkpointDirectory()))
                    .containsExactly(sidecars.checkpoint(3), sidecars.checkpoint(6));
            assertThat(CheckpointDoc.fromObjectBytes(files.read(sidecars.checkpoint(6))))
                    .isEqualTo(world.window(queue, 5).checkpoint().orElseThrow());
        }
    }

    @Test
    void aRunOnS3SendsNoDeleteRequestSoTheLakeNeedsNoDeletePermission() throws Exception {
        TestWindows world = new TestWindows(List.of("orders", "refunds"), 4, 5);
        LakeSink sink = SinkJobs.sink("s3://lake/no-delete-run", broker.url()).sinkName("nodelete").build();
        Map<String, Long> before = s3.requests();

        SinkJobs.run(sink, world, 0);

        // S3A keeps the parents' directory markers (which the lake's writes never create) instead of
        // deleting them after every object: s3:DeleteObject is needed for the start probe's folder only.
        Map<String, Long> served = s3.requestsSince(before);
        assertThat(served).doesNotContainKeys("DeleteObjects", "DeleteObject");
        assertThat(served.get("CompleteMultipartUpload")).as("one object per window of each queue").isEqualTo(8);
        LakeAssertions.assertLakeHoldsEveryWindowOnce(new FlinkLakeFiles("s3://lake/no-delete-run"), Prefix.DEFAULT,
                world, q -> pointer("nodelete", q));
    }

    @Test
    void windowsLandOnS3AsParquetThatDuckDbReadsBack() throws Exception {
        TestWindows world = new TestWindows(List.of("orders", "refunds"), 5, 12);
        LakeSink sink = SinkJobs.sink("s3://lake/parquet-run", broker.url()).sinkName("s3run")
                .writerSettings(new WriterSettings(new Format.Parquet(ParquetCodec.ZSTD), Layout.MERGED, Align.HOUR, 1 << 20))
                .build();

        SinkJobs.run(sink, world, 0);

        LakeAssertions.assertLakeHoldsEveryWindowOnce(new FlinkLakeFiles("s3://lake/parquet-run"), Prefix.DEFAULT,
                world, q -> pointer("s3run", q));
        assertThat(sdk.listMultipartUploads(b -> b.bucket("lake").prefix("parquet-run/")).uploads()).isEmpty();
        String glob = s3.bucketDir().resolve("parquet-run/queen").toString() + "/tenant=*/queue=*/dt=*/hour=*/*.parquet";
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = duck.createStatement().executeQuery("SELECT queue, count(*), count(DISTINCT partition || ':' || \"offset\")"
                        + " FROM read_parquet('" + glob + "', hive_partitioning = true) GROUP BY queue ORDER BY queue")) {
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(rs.getString(1) + "=" + rs.getLong(2) + "/" + rs.getLong(3));
            }
            assertThat(rows).containsExactly("orders=60/60", "refunds=60/60");
        }
    }

    @Test
    void aStagedWindowIsInvisibleUntilItsCommitAndARepeatedCommitIsRecognised() throws Exception {
        TestWindows world = new TestWindows(List.of("staged"), 2, 6);
        LakeSink sink = SinkJobs.sink("s3://lake/staging", broker.url()).sinkName("staging").build();
        LakeWriter writer = new LakeWriter(sink.config(), new InlineMailbox(), 0);
        writer.write(world.window("staged", 0), null);
        List<WindowCommittable> committables = new ArrayList<>(writer.prepareCommit());

        assertThat(committables).hasSize(1);
        assertThat(keysUnder("staging/")).isEmpty();
        assertThat(sdk.listMultipartUploads(b -> b.bucket("lake").prefix("staging/")).uploads()).hasSize(1);
        assertThat(pointer("staging", "staged").pointer()).isEmpty();

        LakeCommitter committer = new LakeCommitter(sink.config(), new LakeMetrics(new UnregisteredMetricsGroup()));
        RecordingCommitRequest<WindowCommittable> first = new RecordingCommitRequest<>(committables.get(0));
        committer.commit(List.of(first));

        assertThat(first.outcome()).isEqualTo(RecordingCommitRequest.Outcome.COMMITTED);
        String key = committables.get(0).staged().get(0).key();
        assertThat(keysUnder("staging/")).contains("staging/" + key).hasSize(2);
        assertThat(pointer("staging", "staged").k()).isEqualTo(1);

        // A restore replays the same committable: it is recognised, and nothing is added.
        RecordingCommitRequest<WindowCommittable> replay = new RecordingCommitRequest<>(committables.get(0));
        committer.commit(List.of(replay));
        assertThat(replay.outcome()).isEqualTo(RecordingCommitRequest.Outcome.ALREADY_COMMITTED);
        assertThat(keysUnder("staging/")).hasSize(2);
        assertThat(pointer("staging", "staged").k()).isEqualTo(1);
    }

    @Test
    void aSecondWriterMovingThePointerStopsTheJobWithTheFencingMessageAndThePointerNeverGoesBack() throws Exception {
        String root = dir.toUri().toString() + "fenced-lake";
        TestWindows world = new TestWindows(List.of("orders"), 40, 3);
        LakeSink sink = SinkJobs.sink(root, broker.url()).sinkName("fenced").build();
        CommitPointers store = new CommitPointers(client, "fenced");

        CompletableFuture<Void> job = CompletableFuture.runAsync(() -> runQuietly(() -> SinkJobs.run(sink, world, 3)));
        ObservedPointer ours = awaitPointer(store, "orders", 2);
        Committed foreign = new Committed(30, TestWindows.BASE_MICROS + 30 * TestWindows.WINDOW_MICROS,
                "other/_queen/windows/0000000030.json", 1, 1, 1L);
        client.kv(List.of(
                KvOp.upsert(SinkKeys.NAMESPACE, store.leaseKey("orders"),
                        RawJson.ofUtf8(new LeaseDoc("other-job@elsewhere", "0123456789abcdef", 1L).toJson()),
                        KvExpiry.seconds(600)),
                new KvOp.Put(SinkKeys.NAMESPACE, store.committedKey("orders"), RawJson.ofUtf8(foreign.toJson()),
                        KvExpiry.forever(), KvExpect.any(), false)));
        ObservedPointer moved = store.read("orders");

        assertThatThrownBy(job::join)
                .hasStackTraceContaining("queue 'orders' is fenced")
                .hasStackTraceContaining("at k=30")
                .hasStackTraceContaining("other-job@elsewhere");
        assertThat(ours.k()).isGreaterThanOrEqualTo(2);
        assertThat(store.read("orders")).isEqualTo(moved);
    }

    @Test
    void aPointerThatNoLongerDecodesStopsTheJobNamingItAndIsNeverOverwritten() throws Exception {
        String root = dir.toUri().toString() + "garbled-lake";
        TestWindows world = new TestWindows(List.of("orders"), 40, 3);
        LakeSink sink = SinkJobs.sink(root, broker.url()).sinkName("garbled").build();
        CommitPointers store = new CommitPointers(client, "garbled");

        CompletableFuture<Void> job = CompletableFuture.runAsync(() -> runQuietly(() -> SinkJobs.run(sink, world, 3)));
        awaitPointer(store, "orders", 2);
        RawJson garbled = RawJson.of("{\"k\":\"two\"}");
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, store.committedKey("orders"), garbled, KvExpiry.forever())));

        assertThatThrownBy(job::join)
                .hasStackTraceContaining("the commit pointer s3:garbled:orders:committed of queue 'orders'")
                .hasStackTraceContaining("fix or delete it in namespace queen-s3");
        KvAnswer.Results stored = (KvAnswer.Results) client.kv(List.of(KvOp.get(SinkKeys.NAMESPACE,
                store.committedKey("orders"))));
        assertThat(((KvResult.Got) stored.get(0)).row()).hasValueSatisfying(row -> assertThat(row.value()).isEqualTo(garbled));
    }

    @Test
    void anS3OutageDuringTheRunIsRetriedAndTheLakeIsCompleteAfterwards() throws Exception {
        TestWindows world = new TestWindows(List.of("orders"), 24, 6);
        LakeSink sink = SinkJobs.sink("s3://lake/outage", broker.url()).sinkName("outage")
                .endpoint(s3.endpoint().toString()).build();
        CommitPointers store = new CommitPointers(client, "outage");

        List<String> lines;
        try (CapturedLog log = CapturedLog.of(S3Outages.class)) {
            CompletableFuture<Void> job = CompletableFuture.runAsync(() -> runQuietly(() -> SinkJobs.run(sink, world, 200)));
            awaitPointer(store, "orders", 3);
            s3.stop();
            long downAtK = store.read("orders").k();
            Thread.sleep(3_000); // the outage itself
            s3.restart();
            job.get(200, TimeUnit.SECONDS);
            assertThat(downAtK).isLessThan(world.windowsPerQueue());
            lines = log.lines();
        }
        lines.forEach(line -> System.out.println("S3Outages said: " + line));

        LakeAssertions.assertLakeHoldsEveryWindowOnce(new FlinkLakeFiles("s3://lake/outage"), Prefix.DEFAULT, world,
                q -> pointer("outage", q));
        assertThat(new LakeChecker(new FlinkLakeFiles("s3://lake/outage"), Prefix.DEFAULT)
                .check(world.tenant(), "orders", world.windowsPerQueue(), world.expectedRecords("orders")).ok()).isTrue();
        // One WARN per outage (not one per retry), one line when it is over. A failure met after the
        // queue's requests succeeded again (a staged upload the stop lost, found by the committer)
        // is an outage of its own, with its own pair of lines.
        assertThat(lines).isNotEmpty().hasSizeLessThanOrEqualTo(6).hasSize(lines.size() / 2 * 2);
        for (int i = 0; i < lines.size(); i += 2) {
            assertThat(lines.get(i)).startsWith("WARN S3 unavailable for queue 'orders': endpoint " + s3.endpoint()
                    + " bucket lake: ").contains(" failed: ").endsWith("; retrying, one line when it recovers");
            assertThat(lines.get(i + 1)).startsWith("INFO S3 available again for queue 'orders': endpoint "
                    + s3.endpoint() + " bucket lake, after ");
        }
    }

    @Test
    void aQueueWhoseUploadsFailDoesNotHoldBackAnotherQueuesCommitsAndFailsTheJobNamingItAfterItsRetries()
            throws Exception {
        TestWindows world = new TestWindows(List.of("orders", "stuck"), 8, 3);
        LakeSink sink = SinkJobs.sink("s3://lake/one-stuck", broker.url()).sinkName("one-stuck")
                .endpoint(s3.endpoint().toString()).stagingRetryFor(Duration.ofSeconds(15)).build();
        CommitPointers store = new CommitPointers(client, "one-stuck");
        String stuckDir = "one-stuck/queen/tenant=" + world.tenant() + "/queue=stuck/";
        s3.failWritesUnder(stuckDir);
        try (CapturedLog log = CapturedLog.of(S3Outages.class)) {
            CompletableFuture<Void> job = CompletableFuture.runAsync(() -> runQuietly(() -> SinkJobs.run(sink, world, 0)));
            // Every window of orders commits while each upload of stuck keeps answering 500.
            awaitPointer(store, "orders", world.windowsPerQueue());
            assertThat(store.read("stuck").pointer()).isEmpty();
            assertThat(job).isNotDone();
            Throwable failed = org.assertj.core.api.Assertions.catchThrowable(() -> job.get(120, TimeUnit.SECONDS));
            assertThat(failed).hasStackTraceContaining("could not stage object " + stuckDir.substring("one-stuck/".length())
                            + "dt=")
                    .hasStackTraceContaining(" of queue 'stuck' (") // whichever of its windows gave up first
                    .hasStackTraceContaining("attempts over 15 s")
                    .hasStackTraceContaining("InternalError");
            for (Throwable t = failed; t != null; t = t.getCause()) {
                if (String.valueOf(t.getMessage()).startsWith("could not stage")) {
                    System.out.println("The job failed with: " + t.getMessage());
                    break;
                }
            }
            // Many failed attempts, one line.
            assertThat(log.lines()).filteredOn(l -> l.contains("queue 'stuck'")).singleElement().asString()
                    .startsWith("WARN S3 unavailable for queue 'stuck'");
        } finally {
            s3.failWritesUnder(null);
        }
        assertThat(keysUnder(stuckDir)).isEmpty();
    }

    @Test
    void checkpointsCompleteAndOtherQueuesCommitWhileOneQueuesCommitWaitsOnASlowBucket() throws Exception {
        TestWindows world = new TestWindows(List.of("fast", "slow"), 10, 3);
        LakeSink sink = SinkJobs.sink("s3://lake/slow-bucket", broker.url()).sinkName("slow-bucket")
                .endpoint(s3.endpoint().toString()).build();
        CommitPointers store = new CommitPointers(client, "slow-bucket");
        String slowManifests = "slow-bucket/" + new SidecarKeys(Prefix.DEFAULT, world.tenant(), "slow").manifestDirectory();
        WriteHold slowBucket = s3.holdWritesUnder(slowManifests);
        CompletableFuture<Void> job;
        try {
            job = CompletableFuture.runAsync(() -> runQuietly(() -> SinkJobs.run(sink, world, 0)));
            assertThat(slowBucket.awaitHeld(Duration.ofSeconds(60))).as("slow's first manifest PUT reached the bucket").isTrue();
            // Each of fast's windows is emitted after one checkpoint and committed after the next: all of
            // them land while slow's commit still waits, so checkpoints complete meanwhile.
            awaitPointer(store, "fast", world.windowsPerQueue());
            assertThat(store.read("slow").pointer()).as("slow waits for its manifest").isEmpty();
            assertThat(job).isNotDone();
        } finally {
            slowBucket.release();
        }
        job.get(120, TimeUnit.SECONDS);
        assertThat(slowBucket.held()).isEqualTo(1);
        LakeAssertions.assertLakeHoldsEveryWindowOnce(new FlinkLakeFiles("s3://lake/slow-bucket"), Prefix.DEFAULT, world,
                q -> pointer("slow-bucket", q));
    }

    private static ObservedPointer awaitPointer(CommitPointers store, String queue, long k) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        ObservedPointer now = store.read(queue);
        while (now.k() < k) {
            assertThat(System.nanoTime()).as("pointer of %s reaching k=%s, now %s", queue, k, now).isLessThan(deadline);
            Thread.sleep(20);
            now = store.read(queue);
        }
        return now;
    }

    private static List<String> keysUnder(String prefix) {
        return sdk.listObjectsV2Paginator(b -> b.bucket("lake").prefix(prefix)).contents().stream()
                .map(S3Object::key).toList();
    }

    private static void runQuietly(ThrowingRunnable<Exception> job) {
        try {
            job.run();
        } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }
}
