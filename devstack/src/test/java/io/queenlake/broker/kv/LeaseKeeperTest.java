package io.queenlake.broker.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvResult;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.manifest.LeaseDoc;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two incarnations of one instance name on one queue, against the dev broker, on a clock the test
 * moves: a live one is never robbed, a stopped one is taken over within two refresh intervals.
 * The TTL (30 s) never runs out on the broker's own clock while a test runs, so every hand-over
 * here is the keepers' doing.
 */
class LeaseKeeperTest {

    private static final long TTL_MS = 30_000;
    private static final long ROUND_MS = TTL_MS / 3;

    private static DevBroker broker;
    private static HttpQueenClient client;
    private static int sinks;

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private SinkKeys keys;

    @BeforeAll
    static void start() throws IOException {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    private LeaseKeeper keeper(String instance, String incarnation) {
        if (keys == null) {
            keys = new SinkKeys("leases-" + (++sinks));
        }
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

        for (int round = 0; round < 60; round++) {
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
        LeaseKeeper live = keeper("job-x", "0000000000000001");
        live.tick();
        LeaseKeeper other = keeper("job-x", "0000000000000002");
        other.tick();
        clock.addAndGet(ROUND_MS);
        live.tick();
        assertThat(other.tick().status("orders")).as("it moved: alive").isEqualTo(LeaseStatus.heldBy("job-x"));

        // The live one stops now. The watcher does not look again before a TTL has passed.
        for (int round = 0; round < 2; round++) {
            clock.addAndGet(ROUND_MS);
            assertThat(other.tick().status("orders")).isEqualTo(LeaseStatus.heldBy("job-x"));
        }
        clock.addAndGet(ROUND_MS);
        assertThat(other.tick().status("orders")).isEqualTo(LeaseStatus.MINE);
    }

    @Test
    void aRefreshJustBeforeTheTakeOverWinsAndTheWatcherBacksOff() {
        LeaseKeeper slow = keeper("job-x", "00000000000000c1");
        slow.tick();
        LeaseKeeper watcher = keeper("job-x", "00000000000000c2");
        watcher.tick();
        clock.addAndGet(ROUND_MS + ROUND_MS / 2);
        slow.tick(); // late by half an interval, but before the watcher's verdict
        assertThat(watcher.tick().status("orders")).isEqualTo(LeaseStatus.heldBy("job-x"));
        assertThat(holder().incarnation()).isEqualTo("00000000000000c1");
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
