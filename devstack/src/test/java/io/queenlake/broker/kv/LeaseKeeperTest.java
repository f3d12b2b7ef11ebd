package io.queenlake.broker.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two incarnations of one instance name on one queue, against the dev broker, on a clock the test
 * moves: a live one is never robbed, a stopped one is taken over within two refresh intervals.
 * The TTL (30 s) never runs out on the broker's own clock while a test runs, so every hand-over
 * here is the keepers' doing.
 */
class LeaseKeeperTest {

    private static final long TTL_MS = 30_000;
    private static final long ROUND_MS = TTL_MS / 3;

    @RegisterExtension
    static final DevBrokerExtension BROKER = new DevBrokerExtension();
    private static final AtomicInteger SINKS = new AtomicInteger();

    private final HttpQueenClient client = BROKER.client();
    private final SinkKeys keys = new SinkKeys("leases-" + SINKS.incrementAndGet());
    private final AtomicLong clock = new AtomicLong(1_000_000);

    private LeaseKeeper keeper(String instance, String incarnation) {
        LeaseKeeper keeper = new LeaseKeeper(client, keys, instance, incarnation, TTL_MS, clock::get);
        keeper.want(List.of("orders"));
        return keeper;
    }

    @Test
    void twoLiveIncarnationsOfOneNameNeverBothHoldTheQueueOverManyRounds() {
        LeaseKeeper first = keeper("job-x", "000000000000000a");
        assertThat(first.tick().status("orders")).isEqualTo(LeaseStatus.MINE);
        LeaseKeeper second = keeper("job-x", "000000000000000b");
        Random random = new Random(18);

        for (int round = 0; round < 40; round++) {
            // Each round one refresh interval later, give or take a quarter, in either order.
            clock.addAndGet(ROUND_MS - ROUND_MS / 4 + random.nextLong(ROUND_MS / 2));
            LeaseView a;
            LeaseView b;
            if (random.nextBoolean()) {
                a = first.tick();
                b = second.tick();
            } else {
                b = second.tick();
                a = first.tick();
            }
            assertThat(a.status("orders")).as("round %d", round).isEqualTo(LeaseStatus.MINE);
            assertThat(b.status("orders").mine()).as("round %d", round).isFalse();
            assertThat(holder().incarnation()).as("round %d", round).isEqualTo("000000000000000a");
        }
        assertThat(second.tick().status("orders")).isEqualTo(LeaseStatus.heldBy("job-x"));
    }

    @Test
    void aRestartedIncarnationTakesTheLeaseBackAtItsSecondRoundOnceTheOldOneStopped() {
        LeaseKeeper old = keeper("job-x", "00000000000000aa");
        assertThat(old.tick().status("orders")).isEqualTo(LeaseStatus.MINE);
        clock.addAndGet(ROUND_MS);
        old.tick(); // its last refresh: then it crashes and never releases

        LeaseKeeper restarted = keeper("job-x", "00000000000000bb");
        assertThat(restarted.staleAfterMs()).isEqualTo(ROUND_MS + ROUND_MS / 2);
        assertThat(restarted.tick().status("orders")).as("first sight: it may be alive").isEqualTo(LeaseStatus.PENDING);
        clock.addAndGet(ROUND_MS);
        assertThat(restarted.tick().status("orders")).as("one interval: not proof yet").isEqualTo(LeaseStatus.PENDING);
        clock.addAndGet(ROUND_MS);
        assertThat(restarted.tick().status("orders")).as("two intervals without a refresh").isEqualTo(LeaseStatus.MINE);
        assertThat(holder().incarnation()).isEqualTo("00000000000000bb");

        assertThatThrownBy(old::tick)
                .isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("queue 'orders'")
                .hasMessageContaining("held by instance job-x (incarnation 00000000000000bb)")
                .hasMessageContaining("another incarnation of this instance name took it over");
    }

    @Test
    void aLeaseSeenAliveIsTriedAgainOnlyAfterATtlAndTakenIfItStoodStillSince() {
        LeaseKeeper other = watcherOfOneRefresh(ROUND_MS);

        // The live one stops now. The watcher does not look again before a TTL has passed.
        for (int round = 0; round < 2; round++) {
            clock.addAndGet(ROUND_MS);
            assertThat(other.tick().status("orders")).isEqualTo(LeaseStatus.heldBy("job-x"));
        }
        clock.addAndGet(ROUND_MS);
        assertThat(other.tick().status("orders")).isEqualTo(LeaseStatus.MINE);
    }

    @Test
    void aRefreshThatLandsBeforeTheVerdictCountsAsAliveEvenHalfAnIntervalLate() {
        watcherOfOneRefresh(ROUND_MS + ROUND_MS / 2);
        assertThat(holder().incarnation()).isEqualTo("0000000000000001");
    }

    /**
     * A holder {@code job-x} that refreshes once {@code afterMs} after a second incarnation of its
     * name first saw its lease, and then stops; returns that watcher, which has seen it alive.
     */
    private LeaseKeeper watcherOfOneRefresh(long afterMs) {
        LeaseKeeper live = keeper("job-x", "0000000000000001");
        live.tick();
        LeaseKeeper watcher = keeper("job-x", "0000000000000002");
        assertThat(watcher.tick().status("orders")).isEqualTo(LeaseStatus.PENDING);
        clock.addAndGet(afterMs);
        live.tick();
        assertThat(watcher.tick().status("orders")).as("it moved: alive").isEqualTo(LeaseStatus.heldBy("job-x"));
        return watcher;
    }

    @Test
    void anotherInstanceIsNeverTakenOverHoweverStillItsLeaseStands() {
        LeaseKeeper holder = keeper("job-a", "00000000000000d1");
        holder.tick();
        LeaseKeeper other = keeper("job-b", "00000000000000d2");
        for (int round = 0; round < 10; round++) {
            assertThat(other.tick().status("orders")).isEqualTo(LeaseStatus.heldBy("job-a"));
            clock.addAndGet(ROUND_MS);
        }
        assertThat(holder().instance()).isEqualTo("job-a");
    }

    private LeaseDoc holder() {
        KvAnswer.Results results = (KvAnswer.Results) client.kv(List.of(KvOp.get(SinkKeys.NAMESPACE, keys.lease("orders"))));
        return LeaseDoc.fromJson(((KvResult.Got) results.get(0)).row().orElseThrow().value().utf8());
    }
}
