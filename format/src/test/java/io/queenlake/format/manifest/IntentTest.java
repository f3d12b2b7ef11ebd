package io.queenlake.format.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.format.model.Layout;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** An intent is open, a window to finish first, only when it names the window right after the pointer's. */
class IntentTest {

    private static Intent intent(long k, long tStart) {
        return new Intent(k, tStart, tStart + 1_000, "jsonl", "zstd", Layout.MERGED, "queen-lake/test");
    }

    private static Optional<Committed> pointer(long k, long tEnd) {
        return Optional.of(new Committed(k, tEnd, "m", 1, 1, 1));
    }

    @Test
    void theIntentOfTheNextWindowStartingAtOrAfterThePointersEndIsOpen() {
        assertThat(intent(5, 4_000).isOpenAfter(pointer(4, 4_000))).isTrue();
        assertThat(intent(5, 4_500).isOpenAfter(pointer(4, 4_000))).as("an aligned start after a gap").isTrue();
        assertThat(intent(1, 0).isOpenAfter(Optional.empty())).as("window 1 of a queue never committed").isTrue();
    }

    @Test
    void anIntentTheLakeIsPastOrThatOverlapsThePointerIsNotOpen() {
        assertThat(intent(4, 3_000).isOpenAfter(pointer(4, 4_000))).as("the pointer's own window: committed").isFalse();
        assertThat(intent(7, 4_000).isOpenAfter(pointer(4, 4_000))).as("not the next window").isFalse();
        assertThat(intent(5, 3_999).isOpenAfter(pointer(4, 4_000))).as("starts inside the committed window").isFalse();
        assertThat(intent(2, 0).isOpenAfter(Optional.empty())).isFalse();
    }
}
