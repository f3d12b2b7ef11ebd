package io.queenlake.connector.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Manifest;
import io.queenlake.format.manifest.ManifestObject;
import io.queenlake.format.model.Layout;
import io.queenlake.connector.sink.committable.StagedObject;
import io.queenlake.connector.sink.committable.WindowCommittable;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CommitDecisionTest {

    private static final long T = 1_791_007_200_000_000L;
    private static final long W = 300_000_000L;
    private static final String KEY = "queen/tenant=t/queue=orders/dt=2026-10-03/hour=06/w-0000000005.jsonl.zst";

    /** Window 5 of queue orders, [T + 4W, T + 5W), one object. */
    private static final WindowCommittable WINDOW_5 = window(5, KEY, "aa11");

    static Stream<Arguments> table() {
        return Stream.of(
                row("no pointer, window 1: the queue's first commit", null, null, window(1, KEY, "aa11"), CommitDecision.COMMIT),
                row("no pointer, window 5: someone deleted or never wrote windows 1..4", null, null, WINDOW_5, CommitDecision.FOREIGN_WRITER),
                row("pointer at k-1 ending at this window's start", pointer(4, T + 4 * W), null, WINDOW_5, CommitDecision.COMMIT),
                row("pointer at k-1 ending before this window's start (an empty gap)", pointer(4, T + 3 * W), null, WINDOW_5, CommitDecision.COMMIT),
                row("pointer at k-1 ending after this window's start: overlapping windows", pointer(4, T + 4 * W + 1), null, WINDOW_5, CommitDecision.FOREIGN_WRITER),
                row("pointer at k, manifest k names the same objects: a replay", pointer(5, T + 5 * W), manifest(5, KEY, "aa11"), WINDOW_5, CommitDecision.ALREADY_COMMITTED),
                row("pointer past k, manifest k names the same objects: an old savepoint", pointer(9, T + 9 * W), manifest(5, KEY, "aa11"), WINDOW_5, CommitDecision.ALREADY_COMMITTED),
                row("pointer at k, manifest k with another sha256: another writer's bytes", pointer(5, T + 5 * W), manifest(5, KEY, "bb22"), WINDOW_5, CommitDecision.FOREIGN_WRITER),
                row("pointer at k, manifest k with another key", pointer(5, T + 5 * W), manifest(5, KEY.replace("05", "06"), "aa11"), WINDOW_5, CommitDecision.FOREIGN_WRITER),
                row("pointer at k, manifest k missing", pointer(5, T + 5 * W), null, WINDOW_5, CommitDecision.FOREIGN_WRITER),
                row("pointer at k, but the manifest read is of another window", pointer(5, T + 5 * W), manifest(4, KEY, "aa11"), WINDOW_5, CommitDecision.FOREIGN_WRITER),
                row("pointer behind k-1: a gap, the pointer went back", pointer(2, T + 2 * W), null, WINDOW_5, CommitDecision.FOREIGN_WRITER));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void theDecisionFollowsThePointerAndManifestK(String rule, Committed pointer, Manifest manifestK,
            WindowCommittable window, CommitDecision expected) {
        assertThat(CommitDecision.of(Optional.ofNullable(pointer), Optional.ofNullable(manifestK), window))
                .as(rule).isEqualTo(expected);
    }

    @ParameterizedTest(name = "pointer k={0} reads manifest k: {1}")
    @MethodSource("manifestNeeds")
    void theManifestIsReadOnlyWhenThePointerCoversTheWindow(long pointerK, boolean needed) {
        assertThat(CommitDecision.needsManifest(Optional.of(pointer(pointerK, T)), 5)).isEqualTo(needed);
    }

    static Stream<Arguments> manifestNeeds() {
        return Stream.of(Arguments.of(3L, false), Arguments.of(4L, false), Arguments.of(5L, true), Arguments.of(8L, true));
    }

    private static Arguments row(String rule, Committed pointer, Manifest manifestK, WindowCommittable window,
            CommitDecision expected) {
        return Arguments.of(rule, pointer, manifestK, window, expected);
    }

    private static Committed pointer(long k, long tEnd) {
        return new Committed(k, tEnd, "queen/_queen/tenant=t/queue=orders/windows/" + k + ".json", 3, 100, 1L);
    }

    private static Manifest manifest(long k, String key, String sha) {
        return new Manifest("default", "t", "orders", k, T + (k - 1) * W, T + k * W, "jsonl", "zstd", Layout.MERGED,
                List.of(ManifestObject.merged(key, 100, 3, sha)), 3, 100, 1, T + (k - 1) * W, T + (k - 1) * W + 5,
                List.of(), "queen-lake/0.1.0 jsonl+zstd", null);
    }

    private static WindowCommittable window(long k, String key, String sha) {
        return new WindowCommittable(manifest(k, key, sha), List.of(new StagedObject(key, 1, new byte[] {1})), Optional.empty());
    }
}
