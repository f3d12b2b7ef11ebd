package io.queenlake.job.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.InlineMailbox;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.sink.committer.LakeCommitter;
import io.queenlake.connector.sink.committer.RecordingCommitRequest;
import io.queenlake.connector.sink.writer.LakeWriter;
import io.queenlake.connector.testutils.TestWindows;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./queen-lake repair-pointer} against a lake the real writer and committer built in a local
 * folder, its pointer in the dev broker's KV (each test its own sink): a deleted pointer is
 * rebuilt exactly as the committer wrote it; a dry run writes nothing; a missing manifest, an object
 * of another length, or (with {@code --check-sha256}) of another sha256 stops the proof at the
 * window before, saying why; a pointer behind is moved with its version, one already there is
 * left alone, one ahead is refused and untouched, one written meanwhile is a lost precondition.
 */
class RepairPointerCommandTest {

    private static final String QUEUE = "orders";
    private static final int WINDOWS = 4;
    private static final int RECORDS = 7;
    private static final TestWindows WORLD = new TestWindows(List.of(QUEUE), WINDOWS, RECORDS);
    private static final SidecarKeys SIDECARS = new SidecarKeys(Prefix.DEFAULT, WORLD.tenant(), QUEUE);

    private static DevBroker broker;
    private static QueenClient client;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** Windows 1..4 of {@link #WORLD} written and committed by the job's own writer and committer; their pointer. */
    private Committed committedLake(String sink) throws Exception {
        LakeSinkConfig config = LakeSink.builder().root(bucket().toUri().toString()).brokerUrl(broker.url().toString())
                .sinkName(sink).build().config();
        List<CommitRequest<WindowCommittable>> requests = new ArrayList<>();
        try (LakeWriter writer = new LakeWriter(config, new InlineMailbox(), 0)) {
            for (int w = 0; w < WINDOWS; w++) {
                writer.write(WORLD.window(QUEUE, w), null);
            }
            writer.prepareCommit().forEach(c -> requests.add(new RecordingCommitRequest<>(c)));
        }
        try (LakeCommitter committer = new LakeCommitter(config, new LakeMetrics(new UnregisteredMetricsGroup()))) {
            committer.commit(requests);
        }
        Committed committed = pointers(sink).read(QUEUE).pointer().orElseThrow();
        assertThat(committed.k()).isEqualTo(WINDOWS);
        return committed;
    }

    private Path bucket() {
        return dir.resolve("lake");
    }

    private static CommitPointers pointers(String sink) {
        return new CommitPointers(client, sink);
    }

    private static void deletePointer(String sink) {
        client.kv(List.of(KvOp.delete(SinkKeys.NAMESPACE, new SinkKeys(sink).committed(QUEUE))));
        assertThat(pointers(sink).read(QUEUE).pointer()).isEmpty();
    }

    private Manifest manifest(long k) throws IOException {
        return ManifestJson.read(Files.readAllBytes(bucket().resolve(SIDECARS.manifest(k))));
    }

    /** The pointer the committer writes for window {@code k}, from its manifest in the lake. */
    private Committed pointerOf(long k) throws IOException {
        Manifest m = manifest(k);
        return new Committed(k, m.tEnd(), SIDECARS.manifest(k), m.records(), m.bytes(), m.committedAtMicros() / 1000);
    }

    private Path objectOf(long k) throws IOException {
        return bucket().resolve(manifest(k).objects().get(0).key());
    }

    private record Outcome(int exit, String out) {}

    private Outcome repair(String sink, String... more) throws Exception {
        return repair(sink, () -> {}, more);
    }

    private Outcome repair(String sink, Runnable beforeWrite, String... more) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Map<String, String> env = new HashMap<>(Map.of("QUEEN_URL", broker.url().toString(), "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", dir.toUri().toString()));
        List<String> args = new ArrayList<>(List.of("--queue", QUEUE, "--sink", sink));
        args.addAll(List.of(more));
        int exit = new RepairPointerCommand(env, new PrintStream(bytes, true, StandardCharsets.UTF_8), beforeWrite)
                .run(args.toArray(String[]::new));
        return new Outcome(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDeletedPointerIsRebuiltExactlyAsTheCommitterWroteIt() throws Exception {
        Committed asCommitted = committedLake("deleted");
        deletePointer("deleted");

        Outcome outcome = repair("deleted");

        assertThat(outcome.exit()).as(outcome.out()).isZero();
        String key = new SinkKeys("deleted").committed(QUEUE);
        assertThat(outcome.out())
                .contains("queue 'orders': manifests 1..4 present and complete (4 objects, 28 records, checked lengths)\n")
                .contains("the commit pointer " + key + " is absent; writing k=4 tEnd=")
                .contains("manifest=" + SIDECARS.manifest(4))
                .contains("the intent s3:deleted:orders:intent names window 4, the repaired pointer's own window: done")
                .contains("commit pointer " + key + " written at k=4")
                .contains("the job continues at window 5");
        ObservedPointer repaired = pointers("deleted").read(QUEUE);
        assertThat(repaired.pointer()).contains(asCommitted);

        Outcome again = repair("deleted");

        assertThat(again.exit()).as(again.out()).isZero();
        assertThat(again.out()).contains("the commit pointer " + key + " is already at k=4 with manifest "
                + SIDECARS.manifest(4) + ": nothing to write");
        assertThat(pointers("deleted").read(QUEUE)).isEqualTo(repaired);
    }

    @Test
    void aDryRunPrintsTheSameAndWritesNothing() throws Exception {
        committedLake("dry");
        deletePointer("dry");

        Outcome outcome = repair("dry", "--dry-run");

        assertThat(outcome.exit()).as(outcome.out()).isZero();
        assertThat(outcome.out()).contains("manifests 1..4 present and complete")
                .contains("is absent; writing k=4").contains("dry run: nothing written")
                .doesNotContain("written at");
        assertThat(pointers("dry").read(QUEUE).pointer()).isEmpty();
    }

    @Test
    void aMissingManifestInTheMiddleWritesNothingAndSaysWhatToRestoreOrMoveAside() throws Exception {
        committedLake("gap");
        deletePointer("gap");
        Files.delete(bucket().resolve(SIDECARS.manifest(3)));

        Outcome outcome = repair("gap");

        assertThat(outcome.exit()).as(outcome.out()).isOne();
        assertThat(outcome.out())
                .contains("queue 'orders': manifests 1..2 present and complete (2 objects, 14 records, checked lengths);"
                        + " the lake holds manifests up to 4, but manifest 3 (" + SIDECARS.manifest(3) + ") is missing")
                .contains("a commit pointer at k=2 would leave manifests 3..4 beyond it, and the job refuses a queue whose"
                        + " lake is ahead of its pointer, so nothing is written")
                .contains("to give windows 3..4 up, move those manifests and the objects they name out of the prefix");
        assertThat(pointers("gap").read(QUEUE).pointer()).isEmpty();
    }

    @Test
    void anObjectOfAnotherLengthStopsBeforeItsWindow() throws Exception {
        committedLake("short");
        deletePointer("short");
        Path object = objectOf(3);
        long said = manifest(3).objects().get(0).bytes();
        Files.write(object, new byte[] {1}, java.nio.file.StandardOpenOption.APPEND);

        Outcome outcome = repair("short");

        assertThat(outcome.exit()).as(outcome.out()).isOne();
        assertThat(outcome.out()).contains("but object " + manifest(3).objects().get(0).key() + " of manifest 3 is "
                + (said + 1) + " bytes where the manifest says " + said)
                .contains("a commit pointer at k=2 would leave manifests 3..4 beyond it");
        assertThat(pointers("short").read(QUEUE).pointer()).isEmpty();
    }

    @Test
    void checkSha256CatchesACorruptedObjectOfTheSameLength() throws Exception {
        committedLake("sha");
        deletePointer("sha");
        Path object = objectOf(3);
        byte[] body = Files.readAllBytes(object);
        body[body.length / 2] ^= 0x01;
        Files.write(object, body);

        Outcome lengths = repair("sha", "--dry-run");
        assertThat(lengths.out()).as("lengths alone do not see it").contains("manifests 1..4 present and complete");

        Outcome outcome = repair("sha", "--check-sha256");

        assertThat(outcome.exit()).as(outcome.out()).isOne();
        assertThat(outcome.out()).contains("manifests 1..2 present and complete (2 objects, 14 records, checked lengths"
                + " and sha256)").contains("object " + manifest(3).objects().get(0).key() + " of manifest 3 has sha256 ")
                .contains("where the manifest says " + manifest(3).objects().get(0).sha256())
                .contains("nothing is written");
        assertThat(pointers("sha").read(QUEUE).pointer()).isEmpty();
    }

    @Test
    void aPointerBehindIsMovedWithItsVersion() throws Exception {
        Committed asCommitted = committedLake("behind");
        deletePointer("behind");
        assertThat(pointers("behind").move(QUEUE, ObservedPointer.absent(), pointerOf(2)).applied()).isTrue();

        Outcome outcome = repair("behind");

        assertThat(outcome.exit()).as(outcome.out()).isZero();
        assertThat(outcome.out()).contains("is at k=2 (tEnd ").contains("behind the lake; writing k=4");
        assertThat(pointers("behind").read(QUEUE).pointer()).contains(asCommitted);
    }

    @Test
    void aPointerAheadOfTheLakeIsRefusedAndUntouched() throws Exception {
        committedLake("ahead");
        ObservedPointer before = pointers("ahead").read(QUEUE);
        Files.delete(bucket().resolve(SIDECARS.manifest(3)));

        Outcome outcome = repair("ahead");

        assertThat(outcome.exit()).as(outcome.out()).isOne();
        assertThat(outcome.out()).contains("is at k=4 (tEnd ").contains(", ahead of k=2, the last window the lake proves:"
                + " a commit pointer never goes back, so nothing is written");
        assertThat(pointers("ahead").read(QUEUE)).isEqualTo(before);
    }

    @Test
    void aPointerWrittenBetweenTheReadAndTheWriteIsALostPrecondition() throws Exception {
        Committed asCommitted = committedLake("raced");
        deletePointer("raced");
        Committed other = pointerOf(3);

        Outcome outcome = repair("raced", () -> assertThat(pointers("raced").move(QUEUE, ObservedPointer.absent(), other)
                .applied()).isTrue());

        assertThat(outcome.exit()).as(outcome.out()).isOne();
        assertThat(outcome.out()).contains("writing k=4").contains("the commit pointer s3:raced:orders:committed changed"
                + " after repair-pointer read it (when it was absent, version 0), so someone else wrote it and nothing was written");
        assertThat(pointers("raced").read(QUEUE).pointer()).contains(other).isNotEqualTo(asCommitted);
    }

    @Test
    void aQueueWithNothingInTheLakeIsSaidAndNothingWritten() throws Exception {
        Outcome outcome = repair("empty");

        assertThat(outcome.exit()).as(outcome.out()).isOne();
        assertThat(outcome.out()).contains("queue 'orders': no manifest in ").contains("check the queue name");
        assertThat(pointers("empty").read(QUEUE).pointer()).isEmpty();
    }

    @Test
    void anUnreachableBrokerIsOneSentenceNamingIt() {
        Map<String, String> env = Map.of("QUEEN_URL", "http://127.0.0.1:1", "QUEEN_S3_BUCKET", "lake",
                "QUEEN_S3_ENDPOINT", dir.toUri().toString());
        assertThatThrownBy(() -> new RepairPointerCommand(env, new PrintStream(new ByteArrayOutputStream()))
                .run(new String[] {"--queue", QUEUE}))
                .hasMessageStartingWith("cannot read the commit pointer of queue 'orders' on the broker at"
                        + " http://127.0.0.1:1 (").hasMessageEndingWith("; nothing written.");
    }
}
