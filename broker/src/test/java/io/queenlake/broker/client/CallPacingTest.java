package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The spacing of write calls, on a clock only the test (and the pacing's own sleeps) move. */
class CallPacingTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<Duration> slept = new ArrayList<>();
    private final CallPacing fivePerSecond = new CallPacing(5, clock::get, delay -> {
        slept.add(delay);
        clock.addAndGet(delay.toNanos());
    });

    @Test
    void theFirstCallStartsAtOnceAndTheNextNoEarlierThanAFifthOfASecondAfterIt() throws Exception {
        fivePerSecond.await();
        clock.addAndGet(50_000_000L);
        fivePerSecond.await();

        assertThat(slept).containsExactly(Duration.ofMillis(150));
        assertThat(clock.get()).isEqualTo(1_200_000_000L);
    }

    @Test
    void aCallLaterThanItsTurnDoesNotWaitAndTheSpacingCountsFromWhenItStarted() throws Exception {
        fivePerSecond.await();
        clock.addAndGet(700_000_000L);
        fivePerSecond.await();
        clock.addAndGet(100_000_000L);
        fivePerSecond.await();

        assertThat(slept).containsExactly(Duration.ofMillis(100));
    }

    @Test
    void aRateThatIsNotAboveZeroIsRefused() {
        for (double rate : new double[] {0, -1, Double.NaN}) {
            assertThatThrownBy(() -> new CallPacing(rate, clock::get, slept::add))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above 0");
        }
    }
}
