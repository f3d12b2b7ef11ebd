package io.queenlake.connector.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.connector.sink.InlineMailbox;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.StagedObject;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.testutils.TestWindows;
import io.queenlake.connector.window.ClosedWindow;
import java.time.Duration;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.RecoverableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer stages on its upload threads, against the real {@code file://} staging: whatever
 * order the uploads end in, {@code prepareCommit} hands every window fully staged and in the order
 * written; a staging that fails fails the task and hands no committable; and the bytes waiting to
 * be staged stay under the cap.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LakeWriterTest {

    @TempDir
    Path dir;

    private LakeSinkConfig config(long stagingBytesInFlight) {
        return config(stagingBytesInFlight, Duration.ZERO);
    }

    private LakeSinkConfig config(long stagingBytesInFlight, Duration retryFor) {
        return LakeSink.builder().root(dir.toUri().toString() + "lake").brokerUrl("http://127.0.0.1:9")
                .stagingBytesInFlight(stagingBytesInFlight).stagingRetryFor(retryFor).build().config();
    }

    /** A file where the queue needs its directory: the real staging of its objects fails until it is deleted. */
    private Path blockQueue(TestWindows world, String queue) throws IOException {
        Path queueDir = dir.resolve("lake/queen/tenant=" + world.tenant() + "/queue=" + queue);
        Files.createDirectories(queueDir.getParent());
        Files.writeString(queueDir, "not a directory");
        return queueDir;
    }

    private RecoverableWriter realStaging(LakeSinkConfig config) throws IOException {
        return FileSystem.get(config.pathOf("").toUri()).createRecoverableWriter();
    }

    @Test
    void theCommittablesOfOnePrepareCommitAreAllStagedAndInKOrderWhenTheFirstUploadFinishesLast() throws Exception {
        TestWindows world = new TestWindows(List.of("orders"), 3, 5);
        LakeSinkConfig config = config(io.queenlake.connector.sink.LakeSinkBuilder.DEFAULT_STAGING_BYTES_IN_FLIGHT);
        RecoverableWriter real = realStaging(config);
        CountDownLatch laterWindowsStaged = new CountDownLatch(2);
        ObservedStaging staging = new ObservedStaging(real) {
            @Override
            void beforeOpen(long k) {
                if (k == 1) {
                    awaitQuietly(laterWindowsStaged);
                }
            }

            @Override
            void afterStaged(long k) {
                if (k != 1) {
                    laterWindowsStaged.countDown();
                }
            }
        };
        List<WindowCommittable> committables;
        try (Closing writer = new Closing(new LakeWriter(config, new InlineMailbox(), 0, staging))) {
            for (int w = 0; w < 3; w++) {
                writer.get().write(world.window("orders", w), null);
            }
            committables = new ArrayList<>(writer.get().prepareCommit());
        }

        assertThat(staging.events().stream().filter(e -> e.startsWith("staged:")))
                .as("window 1 was staged last").endsWith("staged:1").hasSize(3);
        assertThat(committables).extracting(WindowCommittable::k).containsExactly(1L, 2L, 3L);
        for (WindowCommittable window : committables) {
            assertThat(window.staged()).hasSameSizeAs(window.manifest().objects());
            for (int i = 0; i < window.staged().size(); i++) {
                assertStagedAsTheManifestSays(config, real, window.staged().get(i), window.manifest().objects().get(i));
            }
        }
    }

    @Test
    void aWindowWhoseStagingFailsBeyondItsRetriesFailsTheTaskWithTheObjectNamedAndYieldsNoCommittable()
            throws Exception {
        TestWindows world = new TestWindows(List.of("orders", "blocked"), 2, 5);
        LakeSinkConfig config = config(io.queenlake.connector.sink.LakeSinkBuilder.DEFAULT_STAGING_BYTES_IN_FLIGHT);
        blockQueue(world, "blocked");

        try (Closing writer = new Closing(new LakeWriter(config, new InlineMailbox(), 0, realStaging(config)))) {
            writer.get().write(world.window("orders", 0), null);
            writer.get().write(world.window("blocked", 0), null);

            assertThatThrownBy(() -> writer.get().prepareCommit())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("could not stage object queen/tenant=" + world.tenant() + "/queue=blocked/")
                    .hasMessageContaining("of window 1 of queue 'blocked'");
            assertThatThrownBy(() -> writer.get().write(world.window("orders", 1), null))
                    .as("the writer stages nothing more once a staging failed")
                    .isInstanceOf(IOException.class).hasMessageContaining("queue 'blocked'");
            assertThatThrownBy(() -> writer.get().prepareCommit()).isInstanceOf(IOException.class);
        }
    }

    @Test
    void aWindowWhoseStagingIsRetriedIsCarriedInTheWritersStateWhileTheOtherQueuesWindowsGoOn() throws Exception {
        TestWindows world = new TestWindows(List.of("orders", "blocked"), 2, 5);
        LakeSinkConfig config = config(io.queenlake.connector.sink.LakeSinkBuilder.DEFAULT_STAGING_BYTES_IN_FLIGHT,
                Duration.ofMinutes(1));
        Path queueDir = blockQueue(world, "blocked");

        try (Closing writer = new Closing(new LakeWriter(config, new InlineMailbox(), 0, realStaging(config)))) {
            writer.get().write(world.window("blocked", 0), null);
            writer.get().write(world.window("orders", 0), null);
            writer.get().write(world.window("blocked", 1), null);
            writer.get().write(world.window("orders", 1), null);

            assertThat(writer.get().prepareCommit()).extracting(WindowCommittable::queue, WindowCommittable::k)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("orders", 1L),
                            org.assertj.core.groups.Tuple.tuple("orders", 2L));
            List<ClosedWindow> carried = writer.get().snapshotState(1);
            assertThat(carried).extracting(ClosedWindow::queue, ClosedWindow::k).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("blocked", 1L), org.assertj.core.groups.Tuple.tuple("blocked", 2L));
            CarriedWindowsSerializer state = new CarriedWindowsSerializer();
            assertThat(state.deserialize(state.getVersion(), state.serialize(carried.get(0)))).isEqualTo(carried.get(0));

            Files.delete(queueDir); // the bucket takes the queue's uploads again
            writer.get().flush(true); // the end of the input: every window's outcome is awaited
            assertThat(writer.get().prepareCommit()).extracting(WindowCommittable::queue, WindowCommittable::k)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("blocked", 1L),
                            org.assertj.core.groups.Tuple.tuple("blocked", 2L));
            assertThat(writer.get().snapshotState(2)).isEmpty();
        }
    }

    @Test
    void aCarriedWindowRestoredOnAWriterThatNoLongerOwnsItsQueueIsRefusedForGood() {
        TestWindows world = new TestWindows(List.of("orders"), 1, 2);
        ClosedWindow carried = world.window("orders", 0);
        int owner = org.apache.flink.runtime.state.KeyGroupRangeAssignment.assignKeyToParallelOperator("orders", 128, 2);
        CarriedWindowsSerializer.refuseForeign(List.of(carried),
                new org.apache.flink.api.common.TaskInfoImpl("lake-sink", 128, owner, 2, 0));
        assertThatThrownBy(() -> CarriedWindowsSerializer.refuseForeign(List.of(carried),
                        new org.apache.flink.api.common.TaskInfoImpl("lake-sink", 128, 1 - owner, 2, 0)))
                .isInstanceOf(org.apache.flink.runtime.execution.SuppressRestartsException.class)
                .hasStackTraceContaining("carries window 1 of queue 'orders'")
                .hasStackTraceContaining("which writer " + owner + " owns at parallelism 2");
    }

    @Test
    void aWindowAboveTheCapWaitsUntilTheEarlierOnesAreStaged() throws Exception {
        TestWindows world = new TestWindows(List.of("orders"), 3, 5);
        LakeSinkConfig config = config(1);
        Thread task = Thread.currentThread();
        ObservedStaging staging = new ObservedStaging(realStaging(config)) {
            @Override
            void beforeOpen(long k) {
                // Hold window 1 until the task thread waits for room, or (without a cap) window 2 is opened.
                while (k == 1 && task.getState() != Thread.State.WAITING && !events().contains("open:2")) {
                    Thread.onSpinWait();
                }
            }
        };
        try (Closing writer = new Closing(new LakeWriter(config, new InlineMailbox(), 0, staging))) {
            for (int w = 0; w < 3; w++) {
                writer.get().write(world.window("orders", w), null);
            }
            assertThat(writer.get().prepareCommit()).extracting(WindowCommittable::k).containsExactly(1L, 2L, 3L);
        }

        assertThat(staging.events()).containsExactly("open:1", "staged:1", "open:2", "staged:2", "open:3", "staged:3");
    }

    private static void assertStagedAsTheManifestSays(LakeSinkConfig config, RecoverableWriter real, StagedObject staged,
            ManifestObject entry) throws Exception {
        assertThat(staged.key()).isEqualTo(entry.key());
        RecoverableWriter.CommitRecoverable handle = real.getCommitRecoverableSerializer()
                .deserialize(staged.recoverableVersion(), staged.recoverable());
        real.recoverForCommit(handle).commit();
        byte[] body = Files.readAllBytes(Path.of(config.pathOf(entry.key()).toUri()));
        assertThat((long) body.length).isEqualTo(entry.bytes());
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body))).isEqualTo(entry.sha256());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException("interrupted", e));
        }
    }

    /** Closes the writer (its upload threads) at the end of a test. */
    private record Closing(LakeWriter get) implements AutoCloseable {
        @Override
        public void close() {
            get.close();
        }
    }
}
