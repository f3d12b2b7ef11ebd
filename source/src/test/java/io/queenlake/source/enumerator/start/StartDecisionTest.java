package io.queenlake.source.enumerator.start;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PartitionInfo;
import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.source.StartMode;
import io.queenlake.source.split.PartitionSplit;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The start rules per partition, one test per rule. */
class StartDecisionTest {

    private static final long S = 1_791_007_200_000_000L;

    private static PartitionInfo partition(long lastOffset, long logStart, long lastWriteAt) {
        return new PartitionInfo("p", "id-1", lastOffset, logStart, lastWriteAt);
    }

    @Test
    void anOpenIntentOfWindowOneStartsTheQueueAtItsStartWhateverTheStartMode() {
        for (StartMode mode : StartMode.values()) {
            assertThat(StartPlan.openIntent(1_000_000L).decide(mode, 9_000_000L))
                    .isEqualTo(StartDecision.pointer(1_000_000L));
        }
        assertThat(StartPlan.noPointer().decide(StartMode.LATEST, 9_000_000L)).isEqualTo(StartDecision.latest(9_000_000L));
    }

    @Test
    void latestSeeksPastTheFirstSafeTimeWhenThePartitionWasWrittenAfterIt() {
        PartitionSplit split = StartDecision.latest(S).firstPassSplit("q", partition(10, 0, S + 5), Optional.empty());

        assertThat(split).isEqualTo(PartitionSplit.atTime("q", "p", "id-1", S + 1));
    }

    @Test
    void latestStartsAfterTheLastOffsetWithoutASeekWhenNothingIsNewer() {
        PartitionSplit split = StartDecision.latest(S).firstPassSplit("q", partition(10, 0, S), Optional.empty());

        assertThat(split).isEqualTo(PartitionSplit.atOffset("q", "p", "id-1", 11, S + 1));
    }

    @Test
    void anEmptyPartitionStartsAtItsLogStart() {
        PartitionSplit split = StartDecision.pointer(S).firstPassSplit("q", partition(-1, 0, 0), Optional.empty());

        assertThat(split).isEqualTo(PartitionSplit.atOffset("q", "p", "id-1", 0, S));
    }

    @Test
    void earliestStartsAtLogStart() {
        PartitionSplit split = StartDecision.earliest().firstPassSplit("q", partition(10, 4, S), Optional.empty());

        assertThat(split).isEqualTo(PartitionSplit.atOffset("q", "p", "id-1", 4, Long.MIN_VALUE));
    }

    @Test
    void aCheckpointPositionWithoutAnIdCountsAsTheSameIncarnation() {
        PartitionSplit split = StartDecision.pointer(S)
                .firstPassSplit("q", partition(10, 0, S + 9), Optional.of(new CheckpointDoc.Position("p", 7, "")));

        assertThat(split).isEqualTo(PartitionSplit.atOffset("q", "p", "id-1", 7, S));
    }

    @Test
    void aCheckpointPositionBelowLogStartIsKeptSoTheReaderReportsTheGap() {
        PartitionSplit split = StartDecision.pointer(S)
                .firstPassSplit("q", partition(10, 6, S + 9), Optional.of(new CheckpointDoc.Position("p", 2, "id-1")));

        assertThat(split.nextOffset()).isEqualTo(2);
    }

    @Test
    void aLaterPartitionStartsAtLogStartAndAPointerStillDropsBelowTEnd() {
        assertThat(StartDecision.latest(S).laterSplit("q", partition(3, 1, S + 9)))
                .isEqualTo(PartitionSplit.atOffset("q", "p", "id-1", 1, Long.MIN_VALUE));
        assertThat(StartDecision.pointer(S).laterSplit("q", partition(3, 1, S + 9)))
                .isEqualTo(PartitionSplit.atOffset("q", "p", "id-1", 1, S));
    }
}
