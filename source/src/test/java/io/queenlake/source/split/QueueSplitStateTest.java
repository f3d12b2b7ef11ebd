package io.queenlake.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.CheckpointDoc;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.OpenWindows;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The task-side state of a queue split and the split it checkpoints, with and without the windows' cut. */
class QueueSplitStateTest {

    private static final PartitionSplit A = PartitionSplit.atOffset("q", "a", "id-a", 0, Long.MIN_VALUE);
    private static final PartitionSplit B = PartitionSplit.atOffset("q", "b", "id-b", 4, Long.MIN_VALUE);
    private static final LostRange LOST_A = new LostRange("a", 0, 2);
    private static final QueueCut CAME_WITH = new QueueCut(5, 9_000L, 1_000L,
            List.of(new CheckpointDoc.Position("a", 3, "id-a")), List.of(LOST_A));

    @Test
    void withoutWindowsItCheckpointsItsReadPositionsAndItsCutWithEachPendingLostRangeOnce() {
        QueueSplitState state = new QueueSplitState(new QueueSplit("q", List.of(A, B), Optional.of(CAME_WITH)));

        assertThat(state.toSplit(Optional.empty())).as("nothing read: the split it came with, lost ranges once")
                .isEqualTo(new QueueSplit("q", List.of(A, B), Optional.of(CAME_WITH)));

        assertThat(state.takeLost("a")).containsExactly(LOST_A); // rode on a's next record
        state.partition(A.splitId()).setNextOffset(3);

        assertThat(state.toSplit(Optional.empty())).as("an emitted lost range is not carried again")
                .isEqualTo(new QueueSplit("q", List.of(A.withNextOffset(3), B),
                        Optional.of(new QueueCut(5, 9_000L, 1_000L, CAME_WITH.closedPositions(), List.of()))));
    }

    @Test
    void withWindowsEachPartitionResumesAtItsOldestOpenRecordWithTheWindowsCutAndTheLostRangesNotYetEmitted() {
        QueueSplitState state = new QueueSplitState(new QueueSplit("q", List.of(A, B), Optional.empty()));
        state.partition(A.splitId()).setNextOffset(10);
        state.partition(B.splitId()).setNextOffset(6);
        PartitionSplit joined = PartitionSplit.atOffset("q", "c", "id-c", 0, Long.MIN_VALUE);
        state.add(joined);
        state.partition(joined.splitId()).setNextOffset(2);
        LostRange retired = new LostRange("d", 7, 9);
        state.retire(PartitionSplit.splitId("q", "d", "id-old"), List.of(retired)); // not held: only its loss stays
        LostRange riding = new LostRange("a", 4, 4);
        QueueCut windowsCut = new QueueCut(6, 12_000L, 1_000L, List.of(new CheckpointDoc.Position("a", 7, "id-a")),
                List.of(riding));

        QueueSplit split = state.toSplit(Optional.of(new OpenWindows.Snapshot(windowsCut,
                Map.of(A.splitId(), 8L, joined.splitId(), 0L))));

        assertThat(split.partitions()).as("open records are read again; a partition with none from its read position")
                .containsExactly(A.withNextOffset(8), B.withNextOffset(6), joined.withNextOffset(0));
        assertThat(split.cut()).hasValue(new QueueCut(6, 12_000L, 1_000L, windowsCut.closedPositions(),
                List.of(riding, retired)));
    }

    @Test
    void aRetiredIncarnationWithOpenRecordsStaysInTheSplitFromItsOldestOpenRecordUntilTheyClose() {
        QueueSplitState state = new QueueSplitState(new QueueSplit("q", List.of(A), Optional.empty()));
        state.partition(A.splitId()).setNextOffset(10);
        PartitionSplit successor = PartitionSplit.atOffset("q", "a", "id-a2", 0, Long.MIN_VALUE);
        state.retire(A.splitId(), List.of());
        state.add(successor);
        QueueCut cut = new QueueCut(2, 5_000L, Long.MIN_VALUE, List.of(), List.of());

        QueueSplit open = state.toSplit(Optional.of(new OpenWindows.Snapshot(cut, Map.of(A.splitId(), 7L))));
        assertThat(open.partitions()).as("a restore retires it at once, and its open records become a lost range")
                .containsExactly(successor, A.withNextOffset(7));

        QueueSplit closed = state.toSplit(Optional.of(new OpenWindows.Snapshot(cut, Map.of())));
        assertThat(closed.partitions()).as("once its records closed it is gone for good").containsExactly(successor);
        assertThat(state.toSplit(Optional.of(new OpenWindows.Snapshot(cut, Map.of(A.splitId(), 7L)))).partitions())
                .containsExactly(successor);
    }

    @Test
    void aSplitWithNeitherCutNorLostRangesCheckpointsNoCut() {
        QueueSplitState state = new QueueSplitState(new QueueSplit("q", List.of(A), Optional.empty()));

        assertThat(state.toSplit(Optional.empty()).cut()).isEmpty();
    }
}
