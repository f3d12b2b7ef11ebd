package io.queenlake.job.restore;

import io.queenlake.broker.kv.SinkKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvAnswer;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.client.RetryPolicy;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.manifest.Committed;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class PointerRestoreTest {

    private static final RetryPolicy QUICK = new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(2));
    private static DevBroker broker;
    private static HttpQueenClient client;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().token("secret").build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).token("secret").build();
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static void writePointer(String sink, String queue, Committed committed) {
        KvAnswer answer = client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE,
                new SinkKeys(sink).committed(queue), RawJson.ofUtf8(committed.toJson()), KvExpiry.forever())));
        assertThat(answer).isInstanceOf(KvAnswer.Results.class);
    }

    @Test
    void aQueueNeverCommittedHasNoPointer() {
        assertThat(new PointerRestore(client, "default", QUICK).committed("never-seen")).isEmpty();
    }

    @Test
    void thePointerIsReadFromTheSinksEscapedKey() {
        Committed committed = new Committed(7, 1_791_007_500_000_000L, "queen/_queen/m.json", 3, 207, 1_791_009_464_741L);
        writePointer("lake-a", "a/b é", committed);
        writePointer("lake-b", "a/b é", new Committed(2, 1_000_000L, "other", 1, 1, 1));
        assertThat(new SinkKeys("lake-a").committed("a/b é")).isEqualTo("s3:lake-a:a%2Fb%20%C3%A9:committed");
        assertThat(new PointerRestore(client, "lake-a", QUICK).committed("a/b é")).contains(committed);
    }

    @Test
    void aQueueIsReadOncePerInstance() {
        AtomicInteger calls = new AtomicInteger();
        QueenClient counting = new CountingClient(client, calls);
        writePointer("default", "once", new Committed(1, 1_000_000L, "m", 1, 1, 1));
        PointerRestore restore = new PointerRestore(counting, "default", QUICK);
        restore.committed("once");
        writePointer("default", "once", new Committed(2, 2_000_000L, "m", 1, 1, 1));
        assertThat(restore.committed("once").orElseThrow().k()).isEqualTo(1);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aRefusedTokenStopsTheJobForGoodNamingTheQueueAndTheBroker() {
        QueenClient wrongToken = HttpQueenClient.builder().baseUrl(broker.url().toString()).token("wrong").build();
        assertThatThrownBy(() -> new PointerRestore(wrongToken, "default", QUICK).committed("orders"))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("queue 'orders'")
                .hasMessageContaining(broker.url().toString())
                .hasMessageContaining("QUEEN_TOKEN");
    }

    @Test
    void anUnreachableBrokerIsRetriedThenFailsNamingTheQueueAndTheBroker() throws Exception {
        DevBroker gone = DevBroker.start(DevBrokerOptions.builder().build());
        String url = gone.url().toString();
        gone.close();
        AtomicInteger calls = new AtomicInteger();
        QueenClient down = new CountingClient(
                HttpQueenClient.builder().baseUrl(url).requestTimeout(Duration.ofSeconds(2)).build(), calls);
        assertThatThrownBy(() -> new PointerRestore(down, "default", QUICK).committed("orders"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("queue 'orders'")
                .hasMessageContaining(url);
        assertThat(calls).hasValue(QUICK.maxAttempts());
    }

    @Test
    void anUndecodablePointerFailsNamingTheKey() {
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, new SinkKeys("default").committed("broken"),
                RawJson.of("{\"k\":\"seven\"}"), KvExpiry.forever())));
        assertThatThrownBy(() -> new PointerRestore(client, "default", QUICK).committed("broken"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("s3:default:broken:committed")
                .hasMessageContaining("cannot be decoded");
    }
}
