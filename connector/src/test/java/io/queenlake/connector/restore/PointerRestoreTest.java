package io.queenlake.connector.restore;

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
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.Layout;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        assertThat(calls).as("one read of the pointer and one of the intent").hasValue(2);
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

    /** An undecodable pointer or intent (the same rule for both) fails naming its key. */
    @ParameterizedTest
    @ValueSource(strings = {"committed", "intent"})
    void anUndecodableDocumentFailsNamingTheKey(String document) {
        String queue = "broken-" + document;
        SinkKeys keys = new SinkKeys("default");
        String key = document.equals("intent") ? keys.intent(queue) : keys.committed(queue);
        client.kv(List.of(KvOp.upsert(SinkKeys.NAMESPACE, key, RawJson.of("{\"k\":\"seven\"}"), KvExpiry.forever())));
        assertThatThrownBy(() -> new PointerRestore(client, "default", QUICK).start(queue))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("cannot be decoded");
    }

    private static Intent intent(long k, long tStart, long tEnd) {
        return new Intent(k, tStart, tEnd, "jsonl", "zstd", Layout.MERGED, "queen-lake/0.1.0 jsonl+zstd");
    }

    @Test
    void anIntentOfTheWindowAfterThePointerIsTheWindowToFinishFirst() {
        writePointer("default", "redo", new Committed(4, 5_000_000L, "m", 1, 1, 1));
        Intents intents = new Intents(client, "default");
        Intent open = intent(5, 5_000_000L, 6_000_000L);
        assertThat(intents.write("redo", ObservedIntent.absent(), open).applied()).isTrue();
        assertThat(intents.intentKey("redo")).isEqualTo("s3:default:redo:intent");

        PointerRestore.Start start = new PointerRestore(client, "default", QUICK).start("redo");

        assertThat(start.committed().orElseThrow().k()).isEqualTo(4);
        assertThat(start.redo()).contains(open);
    }

    @Test
    void anIntentThePointerReachedOrOneWithoutAPointerBelowItIsNotOpen() {
        Intents intents = new Intents(client, "default");
        writePointer("default", "done", new Committed(5, 6_000_000L, "m", 1, 1, 1));
        intents.write("done", ObservedIntent.absent(), intent(5, 5_000_000L, 6_000_000L));
        intents.write("far", ObservedIntent.absent(), intent(3, 5_000_000L, 6_000_000L));
        intents.write("first", ObservedIntent.absent(), intent(1, 1_000_000L, 2_000_000L));

        PointerRestore restore = new PointerRestore(client, "default", QUICK);

        assertThat(restore.start("done").redo()).isEmpty();
        assertThat(restore.start("far").redo()).as("no pointer: only an intent of window 1 is open").isEmpty();
        assertThat(restore.start("first").redo()).contains(intent(1, 1_000_000L, 2_000_000L));
    }

    @Test
    void anIntentIsWrittenOnlyOverTheVersionLastSeen() {
        Intents intents = new Intents(client, "default");
        Intents.Write first = intents.write("fenced", ObservedIntent.absent(), intent(1, 0, 1_000));
        assertThat(first.applied()).isTrue();
        assertThat(intents.write("fenced", ObservedIntent.absent(), intent(1, 0, 2_000)).applied())
                .as("a second writer that expected no intent").isFalse();
        assertThat(intents.write("fenced", first.now(), intent(2, 1_000, 2_000)).applied()).isTrue();
        assertThat(intents.read("fenced").intent()).contains(intent(2, 1_000, 2_000));
    }
}
