package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.format.key.Prefix;
import io.queenlake.format.key.SidecarKeys;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestJson;
import io.queenlake.format.model.Layout;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.StartMode;
import io.queenlake.source.event.PassCompleted;
import io.queenlake.source.split.QueueSplit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake is the truth: a queue whose bucket holds manifests beyond what its commit pointer (and
 * an open intent) account for, as after a broker that lost its KV or a pointer deleted by hand, is
 * never started from that pointer, which would write window {@code k + 1} over a committed
 * manifest. It gets no split (or, restored with Flink state, no pass lists it), the other queues
 * go on, and once the pointer is repaired it starts in the running job.
 */
class LakeAheadOfPointerTest {

    private static final long WINDOW = 1_000L;
    private static final String SINK = "test";

    private EnumeratorRig rig;

    @TempDir
    Path lake;

    @BeforeEach
    void startBroker() throws Exception {
        rig = new EnumeratorRig();
    }

    @AfterEach
    void stopBroker() throws Exception {
        rig.close();
    }

    @Test
    void aQueueWhosePointerIsGoneWhileManifestsExistGetsNoSplitAndTheOtherQueuesGoOn() throws Throwable {
        rig.push("orders", "a", 3);
        rig.push("refunds", "a", 2);
        writeManifests("orders", 1, 5);
        QueenSourceConfig config = config();
        RecordingContext context = started(config);
        QueenSplitEnumerator enumerator = lastStarted;

        assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactly("refunds");
        assertThat(enumerator.refusalOf("orders")).hasValueSatisfying(line -> assertThat(line)
                .contains("queue 'orders' is refused", "commit pointer s3:test:orders:committed is absent",
                        "manifests 1..5 exist in the bucket", "the broker lost its KV, or someone deleted the pointer",
                        "./queen-lake repair-pointer --queue orders", "continues at k=6"));
        PassCompleted pass = context.lastPass(0);
        assertThat(pass).as("a refused queue holds back no pass").isNotNull();
        assertThat(pass.queues()).containsKey("refunds").doesNotContainKey("orders");

        // Repaired: the pointer names the lake's last window; the running job starts the queue from it.
        rig.putForever(new SinkKeys(SINK).committed("orders"), pointerAt(5).toJson());
        enumerator.recheckRefusedAfter(0);
        context.leaseRound(); // plans the next discovery run, which now checks the refused queue again
        context.discoveryRun();

        assertThat(enumerator.refusedQueues()).isEmpty();
        QueueSplit orders = context.allSplits().stream().filter(s -> s.queue().equals("orders")).findFirst().orElseThrow();
        assertThat(orders.cut()).hasValueSatisfying(cut -> assertThat(cut.k()).isEqualTo(5));
    }

    @Test
    void aPointerThatWentBackIsRefusedNamingTheManifestsAboveIt() throws Throwable {
        rig.push("orders", "a", 1);
        writeManifests("orders", 1, 9);
        rig.putForever(new SinkKeys(SINK).committed("orders"), pointerAt(4).toJson());
        RecordingContext context = started(config());

        assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactly("refunds");
        assertThat(lastStarted.refusalOf("orders")).hasValueSatisfying(line -> assertThat(line)
                .contains("is at k=4 but manifests 5..9 exist", "the broker's KV went back, or someone rewrote the pointer"));
    }

    @Test
    void anOpenIntentAccountsForTheOneManifestACrashedCommitMayHaveWritten() throws Throwable {
        rig.push("orders", "a", 1);
        writeManifests("orders", 1, 3);
        rig.putForever(new SinkKeys(SINK).committed("orders"), pointerAt(2).toJson());
        rig.putForever(new SinkKeys(SINK).intent("orders"), intentOf(3).toJson());
        RecordingContext context = started(config());

        assertThat(lastStarted.refusedQueues()).isEmpty();
        assertThat(context.allSplits()).extracting(QueueSplit::queue).containsExactlyInAnyOrder("orders", "refunds");
    }

    @Test
    void aRestoredQueueWhoseLakeIsAheadIsListedByNoPassUntilItsPointerIsRepaired() throws Throwable {
        rig.push("orders", "a", 2);
        rig.push("refunds", "a", 2);
        QueenSourceConfig config = config();
        started(config);
        QueenEnumState state = lastStarted.snapshotState(1);
        lastStarted.close();
        // The broker lost its KV under the stopped job; the lake kept its windows.
        writeManifests("orders", 1, 4);

        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator restored = rig.start(config, context, state);
        restored.addReader(0);
        awaitTrue(() -> restored.refusalOf("orders").isPresent());
        context.leaseRound();
        context.discoveryRun();

        assertThat(restored.refusalOf("orders")).hasValueSatisfying(line -> assertThat(line)
                .contains("is absent but manifests 1..4 exist"));
        assertThat(restored.refusalOf("refunds")).isEmpty();
        assertThat(context.lastPass(0).queues()).containsKey("refunds").doesNotContainKey("orders");

        rig.putForever(new SinkKeys(SINK).committed("orders"), pointerAt(4).toJson());
        restored.recheckRefusedAfter(0);
        context.leaseRound();
        awaitTrue(() -> restored.refusedQueues().isEmpty());
        context.discoveryRun();

        assertThat(context.lastPass(0).queues()).containsKeys("orders", "refunds");
    }

    private QueenSplitEnumerator lastStarted;

    private QueenSourceConfig config() {
        return rig.config(b -> b.queues("orders", "refunds").start(StartMode.EARLIEST)
                .lakeRoot(lake.resolve("queen").toUri().toString()));
    }

    private RecordingContext started(QueenSourceConfig config) throws Throwable {
        RecordingContext context = rig.context(1);
        context.register(0);
        lastStarted = rig.start(config, context, QueenEnumState.empty());
        lastStarted.addReader(0);
        context.leaseRound();
        context.oneShotCalls();
        context.discoveryRun();
        return context;
    }

    private static Committed pointerAt(long k) {
        return new Committed(k, k * WINDOW, "m", k, k, 1);
    }

    private static Intent intentOf(long k) {
        return new Intent(k, (k - 1) * WINDOW, k * WINDOW, "jsonl", "zstd", Layout.MERGED, "queen-lake/0.1.0 jsonl+zstd");
    }

    private void writeManifests(String queue, long from, long to) throws Exception {
        SidecarKeys keys = new SidecarKeys(Prefix.of(lake.resolve("queen").toString()), EnumeratorRig.TENANT, queue);
        for (long k = from; k <= to; k++) {
            Manifest m = new Manifest(SINK, EnumeratorRig.TENANT, queue, k, (k - 1) * WINDOW, k * WINDOW, "jsonl", "zstd",
                    Layout.MERGED, List.of(), 1, 1, 0, 0, 0, List.of(), List.of(), "queen-lake/0.1.0 jsonl+zstd", 1L);
            Path object = Path.of("/" + keys.manifest(k));
            Files.createDirectories(object.getParent());
            Files.write(object, ManifestJson.write(m));
        }
    }

    private static void awaitTrue(Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.get()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 10 s");
            }
            Thread.sleep(10);
        }
    }
}
