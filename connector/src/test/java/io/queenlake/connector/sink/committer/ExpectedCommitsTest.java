package io.queenlake.connector.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Committed;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The windows the committer prepares together are exactly those {@link CommitDecision} would
 * commit one after another if nobody else moved the pointer: never a window the pointer covers,
 * never one past a gap or an overlap.
 */
class ExpectedCommitsTest {

    private static final long T = TestCommittables.T;
    private static final long W = TestCommittables.W;

    @Test
    void aQueuesFirstWindowsFollowAnAbsentPointer() {
        assertThat(ks(ExpectedCommits.of(Optional.empty(), List.of(window(1), window(2), window(3))))).containsExactly(1L, 2L, 3L);
    }

    @Test
    void windowsAfterThePointerAreExpectedAndThoseItCoversAreLeftOut() {
        assertThat(ks(ExpectedCommits.of(Optional.of(pointer(5, T + 5 * W)),
                List.of(window(4), window(5), window(6), window(7))))).containsExactly(6L, 7L);
    }

    @Test
    void theChainStopsAtAGapInK() {
        assertThat(ks(ExpectedCommits.of(Optional.of(pointer(3, T + 3 * W)),
                List.of(window(4), window(6), window(7))))).containsExactly(4L);
    }

    @Test
    void nothingIsExpectedWhenThePointerEndsAfterTheNextWindowStarts() {
        assertThat(ExpectedCommits.of(Optional.of(pointer(3, T + 3 * W + 1)), List.of(window(4), window(5)))).isEmpty();
    }

    @Test
    void nothingIsExpectedWithoutAPointerPastWindowOne() {
        assertThat(ExpectedCommits.of(Optional.empty(), List.of(window(2), window(3)))).isEmpty();
    }

    @Test
    void everyExpectedWindowIsOneCommitDecisionCommitsAfterItsPredecessor() {
        List<WindowCommittable> windows = List.of(window(4), window(5), window(6));
        Optional<Committed> at = Optional.of(pointer(3, T + 3 * W));
        for (WindowCommittable expected : ExpectedCommits.of(at, windows)) {
            assertThat(CommitDecision.of(at, Optional.empty(), expected)).isEqualTo(CommitDecision.COMMIT);
            at = Optional.of(pointer(expected.k(), expected.tEnd()));
        }
    }

    private static List<Long> ks(List<WindowCommittable> windows) {
        return windows.stream().map(WindowCommittable::k).toList();
    }

    private static Committed pointer(long k, long tEnd) {
        return new Committed(k, tEnd, "queen/_queen/tenant=t/queue=orders/windows/" + k + ".json", 3, 100, 1L);
    }

    private static WindowCommittable window(long k) {
        return TestCommittables.window("orders", k);
    }
}
