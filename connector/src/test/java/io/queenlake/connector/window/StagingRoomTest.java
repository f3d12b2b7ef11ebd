package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.connector.sink.InlineMailbox;
import io.queenlake.connector.sink.LakeSink;
import io.queenlake.connector.sink.LakeSinkConfig;
import io.queenlake.connector.sink.committable.WindowCommittable;
import io.queenlake.connector.sink.writer.LakeWriter;
import io.queenlake.connector.testutils.TestWindows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behind the windows, a writer whose staging is full never stops them in the middle of a close: it
 * takes every window at once, and the windows tell the reader to stop emitting until there is room
 * again, so the read slows by backpressure while the task thread stays free for checkpoints.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StagingRoomTest {

    @TempDir
    Path dir;

    private LakeWriter writer;

    @AfterEach
    void close() {
        if (writer != null) {
            writer.close();
        }
    }

    @Test
    void aFullStagingTakesTheWindowsAtOnceAndHoldsTheReaderUntilItHasRoom() throws Exception {
        TestWindows world = new TestWindows(List.of("orders"), 3, 5);
        LakeSinkConfig config = LakeSink.builder().root(dir.toUri() + "lake").brokerUrl("http://127.0.0.1:9")
                .stagingBytesInFlight(1).stagingRetryFor(Duration.ofMinutes(1)).build().config();
        // A file where the queue's folder goes: its uploads fail, and are retried, until it is gone.
        Path queueDir = dir.resolve("lake/queen/tenant=" + world.tenant() + "/queue=orders");
        Files.createDirectories(queueDir.getParent());
        Files.writeString(queueDir, "not a directory");
        writer = new LakeWriter(config, new InlineMailbox(), 0);
        Optional<WindowHandover> handover = WindowHandover.observeForThisTask();
        assertThat(handover).as("the windows chained before the writer").isPresent();
        assertThat(handover.get().stagingRoom()).as("room before anything is staged").isDone();

        for (int w = 0; w < 3; w++) {
            writer.write(world.window("orders", w), null); // three windows over a 1-byte cap: none waits
        }

        CompletableFuture<Void> room = handover.get().stagingRoom();
        assertThat(room).as("the reader stops emitting while the staging is full").isNotDone();
        Files.delete(queueDir);
        room.get(30, TimeUnit.SECONDS);
        assertThat(handover.get().stagingRoom()).isDone();
        writer.flush(true);
        assertThat(writer.prepareCommit()).extracting(WindowCommittable::k).containsExactly(1L, 2L, 3L);
    }

    @AfterEach
    void forgetTheHandover() {
        WindowHandover.observeForThisTask().ifPresent(WindowHandover::unregister);
    }
}
