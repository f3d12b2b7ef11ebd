package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DedupIndexTest {

    private static final long HOUR = DedupIndex.WINDOW_MICROS;

    @Test
    void anIdDeduplicatesOnlyInsideItsWindow() {
        DedupIndex index = new DedupIndex();
        index.remember("t-1", 0, 1_000);

        assertThat(index.lookup("t-1", 1_000 + HOUR)).isEqualTo(new DedupIndex.Seen(0, 1_000));
        assertThat(index.lookup("t-1", 1_001 + HOUR)).isNull();
    }

    @Test
    void forgettingDropsExactlyTheIdsStampedBelowTheFloor() {
        DedupIndex index = new DedupIndex();
        for (int i = 0; i < 10; i++) {
            index.remember("t-" + i, i, 100 * i);
        }

        index.forgetOlderThan(450);

        for (int i = 0; i < 10; i++) {
            assertThat(index.lookup("t-" + i, 0)).as("t-" + i).isEqualTo(i < 5 ? null : new DedupIndex.Seen(i, 100 * i));
        }
    }

    @Test
    void anIdSeenAgainAfterItsWindowIsKeptWithItsNewStamp() {
        DedupIndex index = new DedupIndex();
        index.remember("again", 0, 100);
        index.remember("other", 1, 200);
        index.remember("again", 2, 300); // pushed again once its window had passed

        index.forgetOlderThan(250);

        assertThat(index.lookup("again", 300)).isEqualTo(new DedupIndex.Seen(2, 300));
        assertThat(index.lookup("other", 300)).isNull();
    }
}
