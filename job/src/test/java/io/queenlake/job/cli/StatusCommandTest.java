package io.queenlake.job.cli;

import io.queenlake.broker.kv.SinkKeys;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.PushItem;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.LeaseDoc;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code ./queen-lake status} against the dev broker, whose clock stands at a fixed time so the
 * lag is known: a queue with a pointer and a lease shows k, tEnd, the holder and its lag; a queue
 * with neither says so; a broker that does not answer is one sentence naming what to check.
 */
class StatusCommandTest {

    /** 2026-10-03T06:40:00Z on the broker's clock; every stamp and safeTime sits a few microseconds above it. */
    private static final long NOW_MICROS = 1_791_009_600_000_000L;
    private static final String SINK = "st";

    private static DevBroker broker;
    private static QueenClient client;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().clock(() -> NOW_MICROS).build());
        client = HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
        client.push(List.of(PushItem.of("orders", "p", "t-1", "{}"), PushItem.of("refunds", "p", "t-2", "{}")));
        CommitPointers pointers = new CommitPointers(client, SINK);
        // Window 12 ended 90 s before the broker's now.
        Committed committed = new Committed(12, NOW_MICROS - 90_000_000L, "queen/_queen/x/windows/0000000012.json", 30, 2048,
                1_791_009_500_000L);
        assertThat(pointers.move("orders", ObservedPointer.absent(), committed).applied()).isTrue();
        LeaseDoc lease = new LeaseDoc("queen-lake@host-a", "0123456789abcdef", 1_791_009_000_000L);
        client.kv(List.of(KvOp.putIfAbsent(SinkKeys.NAMESPACE, pointers.leaseKey("orders"), RawJson.ofUtf8(lease.toJson()),
                KvExpiry.seconds(30))));
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static String status(String... args) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit = new StatusCommand(Map.of("QUEEN_URL", broker.url().toString(), "QUEEN_S3_SINK", SINK),
                new PrintStream(bytes, true, StandardCharsets.UTF_8)).run(args);
        assertThat(exit).isZero();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aQueueWithPointerAndLeaseShowsKTEndHolderAndLag() throws Exception {
        String out = status("--queue", "orders");

        assertThat(out).contains("queue 'orders': k=12 tEnd=2026-10-03T06:38:30.000000Z (window k holds 30 records, 2048 bytes)")
                .contains("lease held by instance 'queen-lake@host-a' (incarnation 0123456789abcdef, since 2026-10-03T06:30:00.000000Z,"
                        + " expires 2026-10-03T06:40:30.0000")
                .contains("lag 90.0 s behind safeTime 2026-10-03T06:40:00.0000");
    }

    @Test
    void everyQueueOfTheBrokerIsShownWhenNoneIsNamed() throws Exception {
        String out = status();

        assertThat(out).contains("queue 'orders': k=12")
                .contains("queue 'refunds': nothing committed yet (no commit pointer); lease free (no job mirrors this queue now);"
                        + " safeTime 2026-10-03T06:40:00.0000");
    }

    @Test
    void queuesAreNamedAsRunTakesThemAJsonArrayKeepingACommaInAName() throws Exception {
        String out = status("--queue", "[\"orders\",\"a,b\"]");

        assertThat(out).contains("queue 'orders': k=12").contains("queue 'a,b': nothing committed yet")
                .doesNotContain("queue '[\"orders\"'").doesNotContain("queue 'b\"]'");
        assertThat(status("--queue", "orders, refunds")).contains("queue 'orders': k=12").contains("queue 'refunds': ");
    }

    @Test
    void aBrokerThatDoesNotAnswerIsOneSentenceNamingWhatToCheck() {
        StatusCommand command = new StatusCommand(Map.of(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));

        assertThatThrownBy(() -> command.run(new String[] {"--queen-url", "http://127.0.0.1:1", "--queue", "orders"}))
                .hasMessageStartingWith("the broker at http://127.0.0.1:1 did not answer")
                .hasMessageEndingWith("check --queen-url (QUEEN_URL), the token (QUEEN_TOKEN) and the tenant (QUEEN_TENANT).");
    }
}
