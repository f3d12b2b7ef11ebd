package io.queenlake.source.watermark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class FrontierTest {

    private static final long GUARD = 5_000_000L; // 5 s, the reference default
    private static final long S = 1_791_007_257_501_942L;

    @Test
    void aCaughtUpSplitStandsAtSafeTimeMinusTheGuard() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.onRecords("a", S - 10, 5);
        frontier.onPass(S, Map.of("a", 4L));

        assertThat(frontier.frontierMicros("a")).hasValue(S - GUARD);
    }

    @Test
    void anEmptyPartitionIsCaughtUpAtOnce() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.onPass(S, Map.of("a", -1L));

        assertThat(frontier.frontierMicros("a")).hasValue(S - GUARD);
    }

    @Test
    void aSplitBehindStandsOneMicrosecondBelowItsLastStamp() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.onPass(S, Map.of("a", 100L));
        frontier.onRecords("a", S - 60_000_000L, 10);

        assertThat(frontier.frontierMicros("a")).hasValue(S - 60_000_000L - 1);
    }

    @Test
    void aSplitBehindNeverPassesSafeTimeMinusTheGuard() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.onPass(S, Map.of("a", 100L));
        frontier.onRecords("a", S - 1, 10); // stamped inside the guard

        assertThat(frontier.frontierMicros("a")).hasValue(S - GUARD);
    }

    @Test
    void aSplitNeverReadHoldsTheWatermark() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.addSplit("b", 0);
        frontier.onPass(S, Map.of("a", -1L, "b", 7L));

        assertThat(frontier.frontierMicros("b")).isEmpty();
        assertThat(watermark(frontier)).isEmpty();
    }

    @Test
    void theWatermarkIsTheMinimumOverSplits() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.addSplit("b", 0);
        frontier.onPass(S, Map.of("a", -1L, "b", 7L));
        frontier.onRecords("b", 1_000_000_000_500L, 3); // behind its pass

        // F = 1_000_000_000_499 us -> W = floor((F + 1) / 1000) - 1 = 1_000_000_000 - 1
        assertThat(watermark(frontier)).hasValue(999_999_999L);
    }

    @Test
    void aQueuesFrontierInMicrosIsTheMinimumOverItsPartitionsAndEmptyWhileOneHoldsIt() {
        Frontier frontier = new Frontier(GUARD);
        assertThat(frontier.frontierMicros()).as("no pass yet").isEmpty();
        frontier.onPass(S, Map.of());
        assertThat(frontier.frontierMicros()).as("no partition: the pass").hasValue(S - GUARD);

        frontier.addSplit("a", 0);
        frontier.addSplit("b", 0);
        frontier.onPass(S, Map.of("a", -1L, "b", 7L));
        assertThat(frontier.frontierMicros()).as("b never read and behind").isEmpty();

        frontier.onRecords("b", 1_000_000_000_500L, 3);
        assertThat(frontier.frontierMicros()).hasValue(1_000_000_000_499L);

        frontier.addSplit("joiner", 0); // a partition listed by a pass, not read yet
        assertThat(frontier.frontierMicros()).isEmpty();
        frontier.removeSplit("joiner");
        assertThat(frontier.frontierMicros()).hasValue(1_000_000_000_499L);
    }

    @Test
    void aWatermarkPromisesOnlyWholeMillisecondsAtOrBelowTheFrontier() {
        // F = ...999 us covers millisecond ...: every record of that millisecond is at or below F.
        assertThat(Frontier.toWatermarkMillis(1_999L)).isEqualTo(1L);
        // F = ...000 us: a record at ...001 us (same millisecond) may still come.
        assertThat(Frontier.toWatermarkMillis(2_000L)).isEqualTo(1L);
        assertThat(Frontier.toWatermarkMillis(2_998L)).isEqualTo(1L);
        assertThat(Frontier.toWatermarkMillis(2_999L)).isEqualTo(2L);
        assertThat(Frontier.toWatermarkMillis(-1L)).isEqualTo(-1L);
    }

    @Test
    void aReaderWithNoSplitFollowsThePass() {
        Frontier frontier = new Frontier(GUARD);
        assertThat(watermark(frontier)).isEmpty();

        frontier.onPass(5_000_000_999L + GUARD, Map.of());

        assertThat(watermark(frontier)).hasValue(5_000_000L);
    }

    @Test
    void neitherAFrontierNorTheWatermarkMovesBack() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.onPass(S, Map.of("a", -1L));
        long before = watermark(frontier).orElseThrow();

        // New records arrive after the pass; the next pass finds the split behind its last stamp.
        frontier.onPass(S + 60_000_000L, Map.of("a", 50L));

        assertThat(frontier.frontierMicros("a")).hasValue(S - GUARD);
        assertThat(watermark(frontier)).hasValue(before);
    }

    @Test
    void aSplitThePassDidNotReportIsNotCaughtUpAgainstIt() {
        Frontier frontier = new Frontier(GUARD);
        frontier.addSplit("a", 0);
        frontier.onPass(S, Map.of("a", 9L));
        frontier.onRecords("a", S - 20_000_000L, 10); // caught up with that pass
        assertThat(frontier.frontierMicros("a")).hasValue(S - GUARD);

        frontier.onPass(S + 60_000_000L, Map.of()); // a pass that does not speak of "a"

        assertThat(frontier.frontierMicros("a")).hasValue(S - GUARD);
    }

    @Test
    void recordsForASplitThisReaderDoesNotOwnAreRefused() {
        Frontier frontier = new Frontier(GUARD);
        assertThatThrownBy(() -> frontier.onRecords("ghost", S, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ghost");
    }

    /** The Flink watermark a frontier gives, as the reader emits it ({@link Frontier#toWatermarkMillis}). */
    private static OptionalLong watermark(Frontier frontier) {
        OptionalLong f = frontier.frontierMicros();
        return f.isPresent() ? OptionalLong.of(Frontier.toWatermarkMillis(f.getAsLong())) : OptionalLong.empty();
    }
}
