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

/** Leases and presence against the dev broker: one mirror per sink and queue, take-over, release. */
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
                .singleElement().satisfies(p -> assertThat(p.lastOffsets()).isEmpty());

        first.enumerator.close();
        assertThat(rig.get(KEYS.lease("orders"))).isEmpty();
        pollUntilMine(second);
        second.context.discoveryRun();
        assertThat(second.context.allSplits()).extracting(s -> s.partition()).containsExactly("a");
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
    void theSameInstanceWithANewIncarnationTakesOverAtOnceAndTheOldOneFails() throws Throwable {
        Node old = node("node-a");
        LeaseDoc before = LeaseDoc.fromJson(rig.get(KEYS.lease("orders")).orElseThrow().value().utf8());

        Node restarted = node("node-a");

        assertThat(restarted.enumerator.queueStatus()).containsEntry("orders", LeaseStatus.MINE);
        LeaseDoc after = LeaseDoc.fromJson(rig.get(KEYS.lease("orders")).orElseThrow().value().utf8());
        assertThat(after.instance()).isEqualTo("node-a");
        assertThat(after.incarnation()).matches("[0-9a-f]{16}").isNotEqualTo(before.incarnation());
        assertThatThrownBy(old.context::leaseRound)
                .isInstanceOf(FlinkRuntimeException.class)
                .hasMessageContaining("queue 'orders'")
                .hasMessageContaining("held by instance node-a (incarnation " + after.incarnation() + ")");
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

    private Node node(String instance) throws Throwable {
        QueenSourceConfig config = rig.config(b -> b.instance(instance));
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
