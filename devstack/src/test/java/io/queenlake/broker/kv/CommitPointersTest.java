package io.queenlake.broker.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.RawJson;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every read and move of the commit pointer, and the one rule for a pointer that does not decode. */
class CommitPointersTest {

    @RegisterExtension
    static final DevBrokerExtension BROKER = new DevBrokerExtension();

    private final HttpQueenClient client = BROKER.client();

    @Test
    void aQueueThatNeverCommittedHasNoPointerAtVersionZero() {
        ObservedPointer observed = new CommitPointers(client, "fresh").read("orders");
        assertThat(observed.pointer()).isEmpty();
        assertThat(observed.version()).isZero();
    }

    @Test
    void aMoveAppliesOnlyFromTheVersionItExpects() {
        CommitPointers pointers = new CommitPointers(client, "moves");
        Committed first = new Committed(1, 1_000_000L, "m1", 1, 10, 1);
        CommitPointers.Move moved = pointers.move("orders", ObservedPointer.absent(), first);
        assertThat(moved.applied()).isTrue();
        assertThat(pointers.read("orders")).isEqualTo(moved.now());

        Committed second = new Committed(2, 2_000_000L, "m2", 1, 10, 2);
        assertThat(pointers.move("orders", ObservedPointer.absent(), second).applied()).isFalse();
        assertThat(pointers.move("orders", moved.now(), second).applied()).isTrue();
        assertThat(pointers.read("orders").k()).isEqualTo(2);
    }

    @Test
    void aPointerThatDoesNotDecodeStopsTheReaderWithOneSentenceNamingItsKey() {
        put("broken", "orders", "{\"k\":\"seven\"}");
        assertThatThrownBy(() -> new CommitPointers(client, "broken").read("orders"))
                .isInstanceOf(UnreadableDocumentException.class)
                .hasMessageStartingWith("the commit pointer s3:broken:orders:committed of queue 'orders' on the broker at ")
                .hasMessageContaining("cannot be decoded")
                .hasMessageEndingWith("fix or delete it in namespace queen-s3 before starting the job");
        assertThatThrownBy(() -> new CommitPointers(client, "broken").readAll(List.of("orders")))
                .isInstanceOf(UnreadableDocumentException.class);
    }

    @Test
    void aStoredNullIsNoPointerEitherAndIsNeverTakenForAbsent() {
        put("nulled", "orders", "null");
        assertThatThrownBy(() -> new CommitPointers(client, "nulled").read("orders"))
                .isInstanceOf(UnreadableDocumentException.class)
                .hasMessageStartingWith("the commit pointer s3:nulled:orders:committed of queue 'orders'");
    }

    @Test
    void manyPointersAreReadInBatchesTheBrokerAccepts() {
        CommitPointers pointers = new CommitPointers(client, "many");
        List<String> queues = IntStream.range(0, KvOp.MAX_OPS + 3).mapToObj(i -> "q" + i).toList();
        pointers.move("q" + KvOp.MAX_OPS, ObservedPointer.absent(), new Committed(4, 4, "m", 1, 1, 1));
        Map<String, ObservedPointer> read = pointers.readAll(queues);
        assertThat(read.keySet()).containsExactlyElementsOf(queues);
        assertThat(read.get("q" + KvOp.MAX_OPS).k()).isEqualTo(4);
        assertThat(read.get("q0").pointer()).isEmpty();
    }

    @Test
    void theLeaseHolderIsNamedAndAnUnreadableLeaseIsAnUnknownHolder() {
        CommitPointers pointers = new CommitPointers(client, "leases");
        assertThat(pointers.holder("free")).isEqualTo("no lease holder (s3:leases:free:lease is free)");
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys("leases").lease("held"),
                RawJson.ofUtf8(new LeaseDoc("job-a", "0123456789abcdef", 1).toJson()), KvExpiry.seconds(60))));
        assertThat(pointers.holder("held")).isEqualTo("lease holder instance 'job-a' (incarnation 0123456789abcdef)");
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys("leases").lease("odd"),
                RawJson.of("[1,2]"), KvExpiry.seconds(60))));
        assertThat(pointers.holder("odd")).isEqualTo("an unknown lease holder (s3:leases:odd:lease is unreadable)");
        assertThat(pointers.lease("odd")).hasValueSatisfying(row -> assertThat(row.holder()).isEmpty());
    }

    private void put(String sink, String queue, String json) {
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys(sink).committed(queue), RawJson.of(json),
                KvExpiry.forever())));
    }
}
