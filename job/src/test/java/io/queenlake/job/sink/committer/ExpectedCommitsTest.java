package io.queenlake.job.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.job.sink.committable.StagedObject;
import io.queenlake.job.sink.committable.WindowCommittable;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The windows the committer prepares together are exactly those {@link CommitDecision} would
 * commit one after another if nobody else moved the pointer: never a window the pointer covers,
 * never one past a gap or an overlap.
 */
class ExpectedCommitsTest {

    private static final long T = 1_791_007_200_000_000L;
    private static final long W = 300_000_000L;

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

    /** Window k of queue orders, [T + (k-1)W, T + kW). */
    private static WindowCommittable window(long k) {
        String key = "queen/tenant=t/queue=orders/dt=2026-10-03/hour=06/w-" + k + ".jsonl.zst";
        Manifest m = new Manifest("default", "t", "orders", k, T + (k - 1) * W, T + k * W, "jsonl", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged(key, 100, 3, "aa11")), 3, 100, 1, T + (k - 1) * W, T + (k - 1) * W + 5,
                List.of(), "queen-lake/0.1.0 jsonl+zstd", null);
        return new WindowCommittable(m, List.of(new StagedObject(key, 1, new byte[] {1})), Optional.empty());
    }
}
