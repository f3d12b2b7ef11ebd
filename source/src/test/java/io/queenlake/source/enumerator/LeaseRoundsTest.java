package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.source.split.QueueSplit;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.junit.jupiter.api.Test;

/**
 * The job's lease rounds never wait for Flink's enumerator worker (where discovery runs plan the
 * starts of thousands of partitions): they run on a thread of their own and hand each answer, or
 * failure, to the coordinator thread.
 */
class LeaseRoundsTest {

    @Test
    void theJobsRoundsRunWithoutFlinksWorkerOnAThreadOfTheirOwnAndAnswerOnTheCoordinatorThread() throws Exception {
        BlockingQueue<String> handled = new LinkedBlockingQueue<>();
        try (MockSplitEnumeratorContext<QueueSplit> context = new MockSplitEnumeratorContext<>(1)) {
            // The mock's worker runs nothing unless a test says so: a discovery run queued there never ends.
            context.callAsync(() -> "discovery", (r, e) -> handled.add("the discovery run was handled"));
            try (LeaseRounds rounds = LeaseRounds.ownThread(context, "test-leases")) {
                rounds.every(20, () -> Thread.currentThread().getName(),
                        (ranOn, error) -> handled.add(ranOn + " -> " + Thread.currentThread().getName()));
                String first = handled.poll(10, TimeUnit.SECONDS);
                String second = handled.poll(10, TimeUnit.SECONDS);
                assertThat(first).as("the first round").startsWith("test-leases -> ").doesNotEndWith("-> test-leases");
                assertThat(second).as("the next round, a period later").isEqualTo(first);

                rounds.once(() -> {
                    throw new IllegalStateException("the broker refused the round");
                }, (nothing, error) -> handled.add("failed: " + error.getMessage()));
                String failed;
                do {
                    failed = handled.poll(10, TimeUnit.SECONDS);
                } while (failed != null && !failed.startsWith("failed"));
                assertThat(failed).isEqualTo("failed: the broker refused the round");
            }
            assertThat(handled).doesNotContain("the discovery run was handled");
        }
    }
}
