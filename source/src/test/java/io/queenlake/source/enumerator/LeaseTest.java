package io.queenlake.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvRow;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.LeaseStatus;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.format.manifest.LeaseDoc;
import io.queenlake.source.QueenSourceConfig;
import io.queenlake.source.event.PassCompleted;
import java.util.Optional;
import org.apache.flink.util.FlinkRuntimeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Leases and presence against the dev broker: one mirror per sink and queue, a restart's take-over,
 * two jobs on one queue, release.
 */
class LeaseTest {

    private static final SinkKeys KEYS = new SinkKeys("test");
    private static final long WAIT_MS = 10_000;

    private EnumeratorRig rig;

    @BeforeEach
    void startBroker() throws Exception {
        rig = new EnumeratorRig();
        rig.push("orders", "a", 2);
    }

    @AfterEach
    void stopBroker() throws Exception {
        rig.close();
    }

    @Test
    void aQueueHeldByAnotherInstanceIsNotAssignedUntilTheHolderCloses() throws Throwable {
        Node first = node("node-a");
        assertThat(first.context.allSplits()).hasSize(1);

        Node second = node("node-b");

        assertThat(second.enumerator.queueStatus()).containsEntry("orders", LeaseStatus.heldBy("node-a"));
        assertThat(second.context.allSplits()).isEmpty();
        assertThat(second.context.eventsOf(0, PassCompleted.class)).as("the held queue does not stop the clock")
                .singleElement().satisfies(p -> assertThat(p.queues()).isEmpty());

        first.enumerator.close();
        assertThat(rig.get(KEYS.lease("orders"))).isEmpty();
        pollUntilMine(second);
        second.context.discoveryRun();
        assertThat(second.context.allPartitions()).extracting(s -> s.partition()).containsExactly("a");
    }

    @Test
    void aLeaseLeftByAStoppedHolderMovesOnceItsTtlRunsOut() throws Throwable {
        Node first = node("node-a"); // never refreshes again: a crashed job
        Node second = node("node-b");
        assertThat(second.enumerator.queueStatus().get("orders").state()).isEqualTo(LeaseStatus.State.HELD);

        pollUntilMine(second);

        second.context.discoveryRun();
        assertThat(second.context.allSplits()).hasSize(1);
        assertThat(first.context.allSplits()).hasSize(1);
    }

    @Test
    void aRestartOfTheSameJobTakesItsLeaseBackWithinTwoRefreshIntervalsAndTheOldIncarnationFails() throws Throwable {
        // One source built once, as Flink restores it: its default instance name was drawn at build time.
        QueenSourceConfig job = rig.config(b -> b.instance(null).leaseTtlMs(6_000));
        Node old = node(job); // then it stops refreshing: its JobManager died without releasing
        LeaseDoc before = lease();
        assertThat(before.instance()).isEqualTo(job.instance()).matches("queen-lake@.+/[0-9a-f]{8}");

        Node restarted = node(job);
        long firstRound = System.currentTimeMillis();
        assertThat(restarted.enumerator.queueStatus()).as("the old incarnation may be alive")
                .containsEntry("orders", LeaseStatus.PENDING);
        assertThat(restarted.context.allSplits()).isEmpty();

        pollUntilMine(restarted);

        long took = System.currentTimeMillis() - firstRound;
        assertThat(took).as("not at once, but once it stood still for 1.5 refresh intervals (3 s), well before"
                + " the 6 s TTL ran out").isBetween(2_000L, 5_000L);
        LeaseDoc after = lease();
        assertThat(after.instance()).isEqualTo(job.instance());
        assertThat(after.incarnation()).matches("[0-9a-f]{16}").isNotEqualTo(before.incarnation());
        restarted.context.discoveryRun();
        assertThat(restarted.context.allSplits()).hasSize(1);
        assertThatThrownBy(old.context::leaseRound)
                .isInstanceOf(FlinkRuntimeException.class)
                .hasMessageContaining("queue 'orders'")
                .hasMessageContaining("held by instance " + job.instance() + " (incarnation " + after.incarnation() + ")");
    }

    @Test
    void twoJobsWithTheDefaultInstanceNeverBothHoldTheQueue() throws Throwable {
        QueenSourceConfig firstJob = rig.config(b -> b.instance(null));
        QueenSourceConfig secondJob = rig.config(b -> b.instance(null));
        assertThat(firstJob.instance()).isNotEqualTo(secondJob.instance());
        Node first = node(firstJob);
        Node second = node(secondJob);

        for (int round = 0; round < 30; round++) { // 3 s: three lease TTLs
            Thread.sleep(100);
            first.context.leaseRound();
            second.context.leaseRound();
            assertThat(first.enumerator.queueStatus()).as("round %d", round).containsEntry("orders", LeaseStatus.MINE);
            assertThat(second.enumerator.queueStatus()).as("round %d", round)
                    .containsEntry("orders", LeaseStatus.heldBy(firstJob.instance()));
        }
        second.context.discoveryRun();
        assertThat(second.context.allSplits()).isEmpty();
        assertThat(lease().instance()).isEqualTo(firstJob.instance());
    }

    @Test
    void twoLiveJobsGivenOneInstanceNameNeverBothHoldTheQueue() throws Throwable {
        Node first = node("shared-name");
        Node second = node("shared-name");
        String incarnation = lease().incarnation();

        for (int round = 0; round < 30; round++) {
            Thread.sleep(100);
            first.context.leaseRound();
            second.context.leaseRound();
            assertThat(first.enumerator.queueStatus()).as("round %d", round).containsEntry("orders", LeaseStatus.MINE);
            assertThat(second.enumerator.queueStatus().get("orders").mine()).as("round %d", round).isFalse();
        }
        assertThat(second.enumerator.queueStatus()).containsEntry("orders", LeaseStatus.heldBy("shared-name"));
        assertThat(lease().incarnation()).isEqualTo(incarnation);
    }

    @Test
    void aRefreshThatLosesItsLeaseFailsTheJobNamingTheQueueAndTheHolder() throws Throwable {
        Node holder = node("node-a");
        rig.client.kv(java.util.List.of(KvOp.upsert(SinkKeys.NAMESPACE, KEYS.lease("orders"),
                RawJson.ofUtf8(new LeaseDoc("intruder", "00000000000000ff", 1).toJson()), KvExpiry.seconds(30))));

        assertThatThrownBy(holder.context::leaseRound)
                .isInstanceOf(FlinkRuntimeException.class)
                .hasMessageContaining("s3:test:orders:lease")
                .hasMessageContaining("held by instance intruder");
    }

    @Test
    void leaseAndPresenceRowsCarryTheInstanceAndATtlAndCloseDeletesBoth() throws Throwable {
        Node a = node("node/a ü");

        KvRow lease = rig.get(KEYS.lease("orders")).orElseThrow();
        KvRow presence = rig.get(KEYS.presence("node/a ü")).orElseThrow();
        assertThat(KEYS.presence("node/a ü")).isEqualTo("s3:test:node=node%2Fa%20%C3%BC");
        assertThat(LeaseDoc.fromJson(lease.value().utf8()).instance()).isEqualTo("node/a ü");
        assertThat(LeaseDoc.fromJson(presence.value().utf8())).isEqualTo(LeaseDoc.fromJson(lease.value().utf8()));
        assertThat(lease.expiresAtMicros()).isPresent();
        assertThat(presence.expiresAtMicros()).isPresent();

        a.enumerator.close();

        assertThat(rig.get(KEYS.lease("orders"))).isEmpty();
        assertThat(rig.get(KEYS.presence("node/a ü"))).isEmpty();
    }

    @Test
    void refreshesKeepTheLeaseWellPastItsTtl() throws Throwable {
        Node a = node("node-a");
        long until = System.currentTimeMillis() + 2_500;
        while (System.currentTimeMillis() < until) {
            a.context.leaseRound();
            Thread.sleep(200);
        }
        assertThat(a.enumerator.queueStatus()).containsEntry("orders", LeaseStatus.MINE);
        assertThat(rig.get(KEYS.lease("orders")).map(r -> LeaseDoc.fromJson(r.value().utf8()).instance()))
                .isEqualTo(Optional.of("node-a"));
    }

    private void pollUntilMine(Node node) throws Throwable {
        long deadline = System.currentTimeMillis() + WAIT_MS;
        while (!node.enumerator.queueStatus().get("orders").mine()) {
            assertThat(System.currentTimeMillis()).as("lease of 'orders' moved to %s", node.name).isLessThan(deadline);
            Thread.sleep(100);
            node.context.leaseRound();
        }
    }

    private LeaseDoc lease() {
        return LeaseDoc.fromJson(rig.get(KEYS.lease("orders")).orElseThrow().value().utf8());
    }

    private Node node(String instance) throws Throwable {
        return node(rig.config(b -> b.instance(instance)));
    }

    private Node node(QueenSourceConfig config) throws Throwable {
        String instance = config.instance();
        RecordingContext context = rig.context(1);
        context.register(0);
        QueenSplitEnumerator enumerator = rig.start(config, context, QueenEnumState.empty());
        enumerator.addReader(0);
        context.leaseRound();
        context.discoveryRun();
        return new Node(instance, enumerator, context);
    }

    private record Node(String name, QueenSplitEnumerator enumerator, RecordingContext context) {}
}
