package io.queenlake.connector.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.connector.sink.committable.WindowCommittable;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The commit operator's state: a window leaves it only once its lane reported it in the lake. */
class PendingWindowsTest {

    @Test
    void aWindowWhoseCommitIsInFlightAtACheckpointIsInThatCheckpointAndComesBackCommittable() throws IOException {
        PendingWindows pending = new PendingWindows();
        pending.add(7, window("orders", 1));
        pending.add(7, window("orders", 2));
        pending.add(8, window("refunds", 1));
        assertThat(ks(pending.release(7))).containsExactly("orders/1", "orders/2");
        pending.committed(window("orders", 1));

        PendingWindows restored = PendingWindows.restore(pending.snapshot());

        assertThat(ks(restored.windows())).containsExactly("orders/2", "refunds/1");
        assertThat(restored.release(Long.MIN_VALUE)).as("restored windows are released already").isEmpty();
        assertThat(restored.inFlight()).isEqualTo(2);
    }

    @Test
    void aWindowIsReleasedOnceAndOnlyWhenItsCheckpointCompleted() {
        PendingWindows pending = new PendingWindows();
        pending.add(7, window("orders", 1));
        pending.add(9, window("orders", 2));

        assertThat(pending.release(6)).isEmpty();
        assertThat(ks(pending.release(8))).containsExactly("orders/1");
        assertThat(ks(pending.release(9))).containsExactly("orders/2");
        assertThat(pending.release(10)).isEmpty();
        assertThat(pending.size()).isEqualTo(2);
    }

    @Test
    void eachQueueIsOneStateEntrySoARescaleMovesItsWindowsTogetherInOrder() throws IOException {
        PendingWindows pending = new PendingWindows();
        for (long k = 1; k <= 3; k++) {
            pending.add(k, window("orders", k));
            pending.add(k, window("refunds", k));
        }

        List<byte[]> entries = pending.snapshot();

        assertThat(entries).hasSize(2);
        assertThat(ks(PendingWindows.restore(List.of(entries.get(1))).windows()))
                .containsExactly("refunds/1", "refunds/2", "refunds/3");
    }

    @Test
    void aStateOfAnotherFormatIsRefusedWithOneSentence() {
        byte[] future = {0, 0, 0, 9, 0, 0, 0, 0};
        assertThatThrownBy(() -> PendingWindows.restore(List.of(future)))
                .hasMessage("the commit operator's state has format 9, this release reads 1: restore it with the"
                        + " release that wrote it, or start without state");
    }

    private static List<String> ks(List<WindowCommittable> windows) {
        return windows.stream().map(w -> w.queue() + "/" + w.k()).toList();
    }

    private static WindowCommittable window(String queue, long k) {
        return TestCommittables.window(queue, k);
    }
}
