package io.queenlake.connector.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.connector.metrics.LakeMetrics;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.testutils.TestWindows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.connector.sink2.Committer.CommitRequest;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A committed manifest is never written over, whatever the KV says: a commit whose manifest key
 * already holds another window stops before its intent, objects or manifest are touched, and a
 * pointer that vanished under a running job is named for what it is (the KV forgot the lake), not
 * as another writer. Against the dev broker and a {@code file://} lake.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NeverOverwriteTest {

    @TempDir
    Path dir;

    @Test
    void aManifestKeyHoldingAnotherWindowStopsTheCommitAndStaysUntouched() throws Exception {
        String root = dir.toUri().toString() + "lake";
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            LakeSinkConfig config = LakeSink.builder().root(root).brokerUrl(broker.url().toString()).build().config();
            commit(config, broker, LakeCommitterQueuesTest.stagedWindows(config, new TestWindows(List.of("alpha"), 1, 4)));
            Map<String, String> before = fingerprint(dir.resolve("lake"));
            forget(broker, "alpha");

            // The same window bounds with other records: window 1 of a run that started from the lost pointer.
            List<WindowCommittable> other = LakeCommitterQueuesTest.stagedWindows(config,
                    new TestWindows(List.of("alpha"), 1, 6));
            assertThatThrownBy(() -> commit(config, broker, other))
                    .isInstanceOf(SuppressRestartsException.class)
                    .rootCause().hasMessageContainingAll("queue 'alpha' is fenced: manifest ",
                            "/windows/0000000001.json already holds this very window with other objects",
                            "not the window k=1", "stops without writing over it", "is absent",
                            "./queen-lake repair-pointer --queue alpha");

            assertThat(fingerprint(dir.resolve("lake"))).as("every committed object and manifest, byte for byte")
                    .containsAllEntriesOf(before);
            assertThat(new CommitPointers(LakeCommitterQueuesTest.client(broker), "default").read("alpha").pointer())
                    .as("the pointer is not moved either").isEmpty();
            assertThat(new Intents(LakeCommitterQueuesTest.client(broker), "default").read("alpha").intent())
                    .as("nor the intent written").isEmpty();
        }
    }

    @Test
    void anotherWindowsManifestOrBytesThatDoNotParseAtTheKeyStopTheCommitUntouched() throws Exception {
        String root = dir.toUri().toString() + "lake";
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            LakeSinkConfig config = LakeSink.builder().root(root).brokerUrl(broker.url().toString()).build().config();
            List<WindowCommittable> windows = LakeCommitterQueuesTest.stagedWindows(config,
                    new TestWindows(List.of("alpha"), 2, 3));
            SidecarKeys keys = new SidecarKeys(Prefix.DEFAULT, ManifestJson.DEFAULT_TENANT, "alpha");
            Path first = dir.resolve("lake").resolve(keys.manifest(1));
            Files.createDirectories(first.getParent());
            // Window 2's manifest, stamped, under window 1's key.
            Files.write(first, ManifestJson.write(windows.get(1).manifest().withCommittedAt(1_791_007_800_000L)));
            byte[] another = Files.readAllBytes(first);

            assertThatThrownBy(() -> commit(config, broker, windows.subList(0, 1)))
                    .isInstanceOf(SuppressRestartsException.class)
                    .rootCause().hasMessageContainingAll("already holds window k=2 [", "of sink 'default'",
                            "not the window k=1");
            assertThat(Files.readAllBytes(first)).isEqualTo(another);

            Files.write(first, "{\"k\":".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            assertThatThrownBy(() -> commit(config, broker, windows.subList(0, 1)))
                    .isInstanceOf(SuppressRestartsException.class)
                    .rootCause().hasMessageContainingAll("holds bytes that do not parse",
                            "no intent of this job names window k=1", "without writing over them");
            assertThat(Files.readString(first)).isEqualTo("{\"k\":");
        }
    }

    @Test
    void aPointerThatVanishedUnderARunningJobIsNamedAsTheKvForgettingTheLake() throws Exception {
        String root = dir.toUri().toString() + "lake";
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build())) {
            LakeSinkConfig config = LakeSink.builder().root(root).brokerUrl(broker.url().toString()).build().config();
            List<WindowCommittable> windows = LakeCommitterQueuesTest.stagedWindows(config,
                    new TestWindows(List.of("alpha"), 3, 2));
            commit(config, broker, windows.subList(0, 2));
            Map<String, String> before = fingerprint(dir.resolve("lake"));
            forget(broker, "alpha");

            assertThatThrownBy(() -> commit(config, broker, windows.subList(2, 3)))
                    .isInstanceOf(SuppressRestartsException.class)
                    .rootCause().hasMessageContainingAll("queue 'alpha' is fenced: its commit pointer",
                            "is absent but manifests 1..2 exist in the bucket",
                            "the broker lost its KV, or someone deleted the pointer; not another writer",
                            "without writing window k=3", "./queen-lake repair-pointer --queue alpha");
            assertThat(fingerprint(dir.resolve("lake"))).isEqualTo(before);
            SidecarKeys keys = new SidecarKeys(Prefix.DEFAULT, ManifestJson.DEFAULT_TENANT, "alpha");
            assertThat(dir.resolve("lake").resolve(keys.manifest(3))).doesNotExist();
        }
    }

    /** What the broker holds for the queue is gone, as after a restart with an empty data dir. */
    private static void forget(DevBroker broker, String queue) {
        SinkKeys keys = new SinkKeys("default");
        LakeCommitterQueuesTest.client(broker).kv(List.of(
                KvOp.delete(SinkKeys.NAMESPACE, keys.committed(queue)), KvOp.delete(SinkKeys.NAMESPACE, keys.intent(queue))));
    }

    private static void commit(LakeSinkConfig config, DevBroker broker, List<WindowCommittable> windows)
            throws Exception {
        QueenClient client = LakeCommitterQueuesTest.client(broker);
        LakeCommitter committer = new LakeCommitter(config, new LakeMetrics(new UnregisteredMetricsGroup()), client);
        try {
            List<CommitRequest<WindowCommittable>> requests = new ArrayList<>();
            windows.forEach(w -> requests.add(new RecordingCommitRequest<>(w)));
            committer.commit(requests);
        } finally {
            committer.close();
        }
    }

    /** Every file under the lake, by relative path, with its sha256. */
    private static Map<String, String> fingerprint(Path lake) throws Exception {
        Map<String, String> sums = new TreeMap<>();
        try (Stream<Path> files = Files.walk(lake)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                sums.put(lake.relativize(file).toString(),
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
            }
        }
        return sums;
    }
}
