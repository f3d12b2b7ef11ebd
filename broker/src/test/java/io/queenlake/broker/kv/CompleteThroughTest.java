package io.queenlake.broker.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompleteThroughTest {

    private static Optional<Committed> pointer(long k, long tEnd) {
        return Optional.of(new Committed(k, tEnd, "m", 1, 1, 0));
    }

    @Test
    void anIdleQueueIsCompleteThroughItsHoldersCheckpointOnceThePointerReachedIt() {
        Optional<LeaseDoc.Progress> closed = Optional.of(new LeaseDoc.Progress(7, 9_000));
        assertThat(CompleteThrough.of(pointer(7, 5_000), closed)).hasValue(9_000);
        assertThat(CompleteThrough.lagMillis(10_000_000, pointer(7, 5_000), closed)).hasValue((10_000_000 - 9_000) / 1000);
    }

    @Test
    void aQueueThatCannotCommitStaysAtItsPointerSoItsLagGrows() {
        Optional<LeaseDoc.Progress> closed = Optional.of(new LeaseDoc.Progress(8, 9_000));
        assertThat(CompleteThrough.of(pointer(7, 5_000), closed)).hasValue(5_000);
        assertThat(CompleteThrough.lagMillis(20_000_000, pointer(7, 5_000), closed)).hasValue((20_000_000 - 5_000) / 1000);
    }

    @Test
    void progressNeverMovesItBackAndNothingKnownIsEmpty() {
        assertThat(CompleteThrough.of(pointer(9, 12_000), Optional.of(new LeaseDoc.Progress(7, 9_000)))).hasValue(12_000);
        assertThat(CompleteThrough.of(Optional.empty(), Optional.empty())).isEmpty();
        assertThat(CompleteThrough.of(Optional.empty(), Optional.of(new LeaseDoc.Progress(0, 3_000)))).hasValue(3_000);
    }
}
