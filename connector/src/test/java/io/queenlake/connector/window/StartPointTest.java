package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.CheckpointDoc.Position;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.Layout;
import io.queenlake.connector.restore.PointerRestore;
import io.queenlake.source.split.QueueCut;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Where a queue's windows continue: the cut, unless the pointer is ahead of it; the intent only as the next window. */
class StartPointTest {

    private static final Committed POINTER = new Committed(7, 7_000, "m", 1, 1, 1);
    private static final Intent INTENT = new Intent(8, 7_000, 8_000, "jsonl", "zstd", Layout.MERGED, "w");

    private static QueueCut cut(long k) {
        return new QueueCut(k, k * 1_000 + 500, 3_000, List.of(new Position("a", k, "id")), List.of());
    }

    private static PointerRestore.Start read(Optional<Committed> pointer, Optional<Intent> intent) {
        return new PointerRestore.Start(pointer, intent);
    }

    @Test
    void withoutACutTheQueueContinuesFromThePointerAndRedoesItsOpenIntent() {
        StartPoint s = StartPoint.decide(Optional.empty(), read(Optional.of(POINTER), Optional.of(INTENT)));
        assertThat(s).isEqualTo(new StartPoint(7, 7_000, 7_000, List.of(), Optional.of(INTENT), true));
    }

    @Test
    void withoutACutOrAPointerTheQueueStartsAtWindowOne() {
        StartPoint s = StartPoint.decide(Optional.empty(), read(Optional.empty(), Optional.empty()));
        assertThat(s).isEqualTo(new StartPoint(0, Long.MIN_VALUE, Long.MIN_VALUE, List.of(), Optional.empty(), true));
    }

    @Test
    void thePointerWinsWhenItIsAheadOfTheCut() {
        StartPoint s = StartPoint.decide(Optional.of(cut(5)), read(Optional.of(POINTER), Optional.of(INTENT)));
        assertThat(s.fromPointer()).isTrue();
        assertThat(s.k()).isEqualTo(7);
        assertThat(s.lastEnd()).isEqualTo(7_000);
        assertThat(s.redo()).contains(INTENT);
    }

    @Test
    void aCutAtOrAheadOfThePointerWinsAndRedoesTheIntentOnlyWhenItNamesTheNextWindow() {
        StartPoint atPointer = StartPoint.decide(Optional.of(cut(7)), read(Optional.of(POINTER), Optional.of(INTENT)));
        assertThat(atPointer).isEqualTo(new StartPoint(7, 7_500, 3_000, List.of(new Position("a", 7, "id")),
                Optional.of(INTENT), false));
        StartPoint ahead = StartPoint.decide(Optional.of(cut(9)), read(Optional.of(POINTER), Optional.of(INTENT)));
        assertThat(ahead.fromPointer()).isFalse();
        assertThat(ahead.k()).isEqualTo(9);
        assertThat(ahead.redo()).as("window 8 closed after the intent was written").isEmpty();
    }
}
