package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The one pause rule: doubling from the first pause, never past the longest. */
class BackoffTest {

    @Test
    void pausesDoubleFromTheFirstUpToTheLongest() {
        Backoff lake = Backoff.LAKE;
        assertThat(lake.after(1)).isEqualTo(Duration.ofMillis(200));
        assertThat(lake.after(2)).isEqualTo(Duration.ofMillis(400));
        assertThat(lake.after(6)).isEqualTo(Duration.ofMillis(6_400));
        assertThat(lake.after(7)).isEqualTo(Duration.ofSeconds(10));
        assertThat(lake.after(1_000)).as("no overflow however long the failures last").isEqualTo(Duration.ofSeconds(10));
        assertThat(lake.after(0)).as("before any failure, the first pause").isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void theLongestPauseIsNeverShorterThanTheFirst() {
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("0 <= first <= longest");
    }
}
