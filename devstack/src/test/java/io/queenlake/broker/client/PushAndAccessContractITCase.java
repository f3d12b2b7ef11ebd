package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Broker contract: push and dedup, the other routes, auth and tenancy. */
class PushAndAccessContractITCase {

    private static BrokerTarget target;

    @BeforeAll
    static void start() throws Exception {
        target = BrokerTarget.fromEnvironment();
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    @Test
    void aRepeatedTransactionIdIsADuplicateOfTheOriginalOffsetAndAppendsNothing() {
        String queue = BrokerTarget.uniqueQueue("dedup");
        List<PushResult> first = target.client().push(List.of(
                PushItem.of(queue, "p", "t-1", "1"), PushItem.of(queue, "p", "t-2", "2")));
        assertThat(first).extracting(PushResult::status)
                .containsExactly(PushResult.PushStatus.QUEUED, PushResult.PushStatus.QUEUED);
        assertThat(first).extracting(PushResult::offset).containsExactly(0L, 1L);

        List<PushResult> again = target.client().push(List.of(PushItem.of(queue, "p", "t-1", "\"retry\"")));
        assertThat(again.get(0).status()).isEqualTo(PushResult.PushStatus.DUPLICATE);
        assertThat(again.get(0).offset()).isZero();
        assertThat(again.get(0).transactionId()).isEqualTo("t-1");
        assertThat(target.readAll(queue, "p", 0)).extracting(FetchedRecord::payloadText).containsExactly("1", "2");
    }

    @Test
    void theSameTransactionIdInAnotherPartitionIsNotADuplicate() {
        String queue = BrokerTarget.uniqueQueue("dedup-lanes");
        target.client().push(List.of(PushItem.of(queue, "a", "t-1", "1")));
        PushResult other = target.client().push(List.of(PushItem.of(queue, "b", "t-1", "1"))).get(0);
        assertThat(other.status()).isEqualTo(PushResult.PushStatus.QUEUED);
    }

    @Test
    void aPushWithoutTransactionIdGetsAMintedOne() {
        String queue = BrokerTarget.uniqueQueue("minted");
        PushResult result = target.client().push(List.of(new PushItem(queue, "p", Optional.empty(), RawJson.of("1")))).get(0);
        assertThat(result.transactionId()).isNotEmpty();
        assertThat(result.status()).isEqualTo(PushResult.PushStatus.QUEUED);
    }

    @Test
    void aPushWithoutPartitionGoesToDefault() throws Exception {
        String queue = BrokerTarget.uniqueQueue("default-lane");
        BrokerTarget.RawAnswer answer = target.raw("/api/v1/push",
                "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":{\"k\":1}}]}");
        assertThat(answer.status()).isEqualTo(201);
        List<PushResult> results = PushDecoder.decode(answer.body().getBytes(StandardCharsets.UTF_8),
                List.of(new PushItem(queue, "Default", Optional.empty(), RawJson.of("1"))));
        assertThat(results.get(0).offset()).isZero();
        assertThat(target.readAll(queue, "Default", 0)).extracting(FetchedRecord::payloadText).containsExactly("{\"k\":1}");
    }

    @Test
    void anEmptyPushAnswersAnEmptyArray() {
        assertThat(target.client().push(List.of())).isEmpty();
    }

    @Test
    void theQueueListingNamesPushedQueues() {
        String queue = BrokerTarget.uniqueQueue("listed");
        target.push(queue, "p", "1");
        assertThat(target.client().queues()).contains(queue);
    }

    @Test
    void configureAcceptsRetentionAndSinkHoldOptions() {
        String queue = BrokerTarget.uniqueQueue("configured");
        target.push(queue, "p", "1");
        target.client().configure(queue, QueueOptions.retention(86_400).heldBySink("default", 604_800));
        assertThat(target.readAll(queue, "p", 0)).hasSize(1);
    }

    @Test
    void healthIsPublic() {
        BrokerHealth health = target.clientWithToken(null).health();
        assertThat(health.healthy()).isTrue();
        assertThat(health.status()).isEqualTo("healthy");
    }

    @Test
    void everyOtherRouteRefusesAMissingOrWrongTokenAsTerminal() {
        assumeTrue(target.token().isPresent(), "the target broker runs without authentication (QUEEN_TOKEN unset)");
        for (QueenClient anonymous : List.of(target.clientWithToken(null), target.clientWithToken("not-the-token"))) {
            QueenException fetch = catchThrowableOfType(() -> anonymous.fetch(FetchRequest.immediate(List.of())), QueenException.class);
            assertThat(fetch.status()).isEqualTo(401);
            assertThat(fetch.retriable()).isFalse();
            assertThat(fetch.getMessage()).endsWith("check QUEEN_TOKEN");
            assertThat(catchThrowableOfType(() -> anonymous.partitionsChanged(List.of()), QueenException.class).status()).isEqualTo(401);
            assertThat(catchThrowableOfType(() -> anonymous.kv(List.of(KvOp.get("ql-contract", "k"))), QueenException.class).status()).isEqualTo(401);
            assertThat(catchThrowableOfType(() -> anonymous.push(List.of(PushItem.of("q", "p", "t", "1"))), QueenException.class).status()).isEqualTo(401);
            assertThat(catchThrowableOfType(anonymous::queues, QueenException.class).status()).isEqualTo(401);
        }
    }

    @Test
    void anotherTenantSeesNothingOfThisOne() {
        String queue = BrokerTarget.uniqueQueue("tenancy");
        target.push(queue, "p", "1");
        String key = "tenancy-" + UUID.randomUUID();
        target.client().kv(List.of(KvOp.upsert("ql-contract", key, RawJson.of("1"), KvExpiry.seconds(60))));

        QueenClient stranger = target.clientForTenant(UUID.randomUUID().toString());
        assertThat(stranger.fetch(FetchRequest.immediate(List.of(FetchEntry.of(queue, "p", 0, 1024)))).get(0).error())
                .isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(stranger.partitionsChanged(List.of(ChangedQuery.firstPage(queue, 10))).entries().get(0).error())
                .isEqualTo(EntryError.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(stranger.queues()).doesNotContain(queue);
        KvAnswer.Results kv = (KvAnswer.Results) stranger.kv(List.of(KvOp.get("ql-contract", key)));
        assertThat(((KvResult.Got) kv.get(0)).row()).isEmpty();

        QueenClient defaultTenant = target.clientForTenant(BrokerTarget.DEFAULT_TENANT);
        assertThat(defaultTenant.fetch(FetchRequest.immediate(List.of(FetchEntry.of(queue, "p", 0, 1024)))).get(0).records())
                .hasSize(1);
    }

    @Test
    void aMalformedTenantHeaderIsABadRequest() throws Exception {
        BrokerTarget.RawAnswer answer = target.raw("/api/v1/partitions/changed", "{\"entries\":[]}", "x-queen-tenant", "acme");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("x-queen-tenant");
    }
}
