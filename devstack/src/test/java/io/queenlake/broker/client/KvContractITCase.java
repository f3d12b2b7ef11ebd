package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Broker contract: KV versions, TTL, preconditions, roll-back, reads that see the batch, limits. */
class KvContractITCase {

    private static final String NS = "ql-contract";
    private static BrokerTarget target;
    private String prefix;

    @BeforeAll
    static void start() throws Exception {
        target = BrokerTarget.fromEnvironment();
    }

    @AfterAll
    static void stop() {
        target.close();
    }

    @BeforeEach
    void uniqueKeys() {
        prefix = "kv-" + UUID.randomUUID() + ":";
    }

    private static KvAnswer.Results batch(KvOp... ops) {
        KvAnswer answer = target.client().kv(List.of(ops));
        assertThat(answer).isInstanceOf(KvAnswer.Results.class);
        return (KvAnswer.Results) answer;
    }

    private static KvResult.Written write(KvOp op) {
        return (KvResult.Written) batch(op).get(0);
    }

    private static Optional<KvRow> get(String key) {
        return ((KvResult.Got) batch(KvOp.get(NS, key)).get(0)).row();
    }

    private String key(String name) {
        return prefix + name;
    }

    @Test
    void aPutAnswersAVersionThatGetReadsWithTheExactValue() {
        String value = "{\"b\":1,\"a\":123456789012345678901234567890,\"c\":1.50}";
        KvResult.Written put = write(KvOp.upsert(NS, key("a"), RawJson.of(value), KvExpiry.forever()));
        assertThat(put.applied()).isTrue();
        assertThat(put.reason()).isEmpty();

        KvRow row = get(key("a")).orElseThrow();
        assertThat(row.version()).isEqualTo(put.version());
        assertThat(row.value().text()).isEqualTo(value);
        assertThat(row.expiresAtMicros()).isEmpty();

        KvResult.Written again = write(KvOp.upsert(NS, key("a"), RawJson.of("2"), KvExpiry.forever()));
        assertThat(again.version()).isNotEqualTo(put.version());
    }

    @Test
    void aTtlRowCarriesItsExpiryAndReadsAsAbsentOnceExpired() throws Exception {
        long before = target.safeTime();
        write(KvOp.upsert(NS, key("ttl"), RawJson.of("1"), KvExpiry.seconds(2)));
        KvRow row = get(key("ttl")).orElseThrow();
        assertThat(row.expiresAtMicros()).isPresent();
        assertThat(row.expiresAtMicros().getAsLong()).isGreaterThan(before);

        target.passTime(Duration.ofSeconds(3));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (get(key("ttl")).isPresent() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(get(key("ttl"))).isEmpty();
        KvResult.GotMany many = (KvResult.GotMany) batch(KvOp.getMany(NS, List.of(key("ttl")))).get(0);
        assertThat(many.rows()).isEmpty();
        assertThat(many.missing()).containsExactly(key("ttl"));
    }

    @Test
    void expectZeroRefusesAnExistingKeyAndNamesTheWinner() {
        KvResult.Written first = write(new KvOp.Put(NS, key("z"), RawJson.of("{\"w\":1}"), KvExpiry.forever(), KvExpect.absent(), false));
        assertThat(first.applied()).isTrue();
        KvResult.Written second = write(new KvOp.Put(NS, key("z"), RawJson.of("{\"w\":2}"), KvExpiry.forever(), KvExpect.absent(), false));
        assertThat(second.applied()).isFalse();
        assertThat(second.reason()).hasValue(KvReason.EXISTS);
        assertThat(second.version()).isEqualTo(first.version());
        assertThat(second.value()).hasValue(RawJson.of("{\"w\":1}"));

        KvResult.Written ifAbsent = write(KvOp.putIfAbsent(NS, key("z"), RawJson.of("3"), KvExpiry.seconds(30)));
        assertThat(ifAbsent.applied()).isFalse();
        assertThat(ifAbsent.reason()).hasValue(KvReason.EXISTS);
    }

    @Test
    void expectVersionAppliesOnlyOnThatVersionAndNeverCreates() {
        KvResult.Written created = write(KvOp.upsert(NS, key("v"), RawJson.of("1"), KvExpiry.forever()));
        KvResult.Written stale = write(new KvOp.Put(NS, key("v"), RawJson.of("2"), KvExpiry.forever(),
                KvExpect.version(created.version() + 1_000_000), false));
        assertThat(stale.applied()).isFalse();
        assertThat(stale.reason()).hasValue(KvReason.VERSION);
        assertThat(stale.version()).isEqualTo(created.version());

        KvResult.Written current = write(new KvOp.Put(NS, key("v"), RawJson.of("2"), KvExpiry.forever(),
                KvExpect.version(created.version()), false));
        assertThat(current.applied()).isTrue();

        KvResult.Written absent = write(new KvOp.Put(NS, key("never"), RawJson.of("1"), KvExpiry.forever(),
                KvExpect.version(created.version()), false));
        assertThat(absent.applied()).isFalse();
        assertThat(absent.reason()).hasValue(KvReason.ABSENT);
        assertThat(get(key("never"))).isEmpty();
    }

    @Test
    void aDeleteWithExpectRemovesOnlyThatVersion() {
        KvResult.Written created = write(KvOp.upsert(NS, key("d"), RawJson.of("1"), KvExpiry.forever()));
        KvResult.Deleted wrong = (KvResult.Deleted) batch(new KvOp.Delete(NS, key("d"),
                KvExpect.version(created.version() + 1_000_000), false)).get(0);
        assertThat(wrong.applied()).isFalse();
        assertThat(wrong.reason()).hasValue(KvReason.VERSION);
        assertThat(get(key("d"))).isPresent();

        KvResult.Deleted right = (KvResult.Deleted) batch(new KvOp.Delete(NS, key("d"),
                KvExpect.version(created.version()), false)).get(0);
        assertThat(right.applied()).isTrue();
        assertThat(get(key("d"))).isEmpty();
    }

    @Test
    void aLostRequiredPreconditionRollsBackTheWholeBatch() {
        KvResult.Written fence = write(KvOp.upsert(NS, key("fence"), RawJson.of("{\"holder\":\"other\"}"), KvExpiry.forever()));
        write(KvOp.upsert(NS, key("doc"), RawJson.of("\"before\""), KvExpiry.forever()));

        KvAnswer answer = target.client().kv(List.of(
                KvOp.upsert(NS, key("doc"), RawJson.of("\"after\""), KvExpiry.forever()),
                new KvOp.Put(NS, key("fence"), RawJson.of("{\"holder\":\"me\"}"), KvExpiry.seconds(30),
                        KvExpect.version(fence.version() + 1_000_000), true)));

        assertThat(answer).isInstanceOf(KvAnswer.PreconditionFailed.class);
        KvAnswer.PreconditionFailed lost = (KvAnswer.PreconditionFailed) answer;
        assertThat(lost.failedIndex()).isEqualTo(1);
        assertThat(lost.kvReason()).hasValue(KvReason.VERSION);
        assertThat(lost.version()).hasValue(fence.version());
        assertThat(lost.value()).hasValue(RawJson.of("{\"holder\":\"other\"}"));
        assertThat(get(key("doc")).orElseThrow().value()).isEqualTo(RawJson.of("\"before\""));
    }

    @Test
    void getManyAndGetPrefixSeeTheBatchsOwnWrites() {
        KvAnswer.Results results = batch(
                KvOp.upsert(NS, key("m1"), RawJson.of("1"), KvExpiry.forever()),
                KvOp.upsert(NS, key("m2"), RawJson.of("2"), KvExpiry.seconds(60)),
                KvOp.getMany(NS, List.of(key("m1"), key("m2"), key("m3"))),
                KvOp.getPrefix(NS, prefix, 100));
        KvResult.GotMany many = (KvResult.GotMany) results.get(2);
        assertThat(many.rows()).extracting(KvRow::key).containsExactlyInAnyOrder(key("m1"), key("m2"));
        assertThat(many.missing()).containsExactly(key("m3"));
        assertThat(many.truncated()).isFalse();
        KvResult.GotPrefix byPrefix = (KvResult.GotPrefix) results.get(3);
        assertThat(byPrefix.rows()).extracting(KvRow::key).containsExactly(key("m1"), key("m2"));
        assertThat(byPrefix.rows().get(1).value()).isEqualTo(RawJson.of("2"));
    }

    @Test
    void getPrefixPagesInKeyOrderWithAfter() {
        List<KvOp> puts = new ArrayList<>();
        for (String name : List.of("e", "c", "a", "d", "b")) {
            puts.add(KvOp.upsert(NS, key(name), RawJson.of("\"" + name + "\""), KvExpiry.forever()));
        }
        target.client().kv(puts);
        KvResult.GotPrefix first = (KvResult.GotPrefix) batch(KvOp.getPrefix(NS, prefix, 2)).get(0);
        assertThat(first.rows()).extracting(KvRow::key).containsExactly(key("a"), key("b"));
        assertThat(first.truncated()).isTrue();
        assertThat(first.nextAfter()).hasValue(key("b"));
        KvResult.GotPrefix rest = (KvResult.GotPrefix) batch(new KvOp.GetPrefix(NS, prefix, 10, first.nextAfter())).get(0);
        assertThat(rest.rows()).extracting(KvRow::key).containsExactly(key("c"), key("d"), key("e"));
        assertThat(rest.truncated()).isFalse();
    }

    @Test
    void aNamespaceOutsideTheAllowedPatternIsABadRequest() {
        QueenException e = catchThrowableOfType(() -> target.client().kv(List.of(KvOp.get("Bad NS", "k"))), QueenException.class);
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.retriable()).isFalse();
    }

    @Test
    void aPutMustStateItsExpiry() throws Exception {
        BrokerTarget.RawAnswer answer = target.raw("/api/v1/kv", "{\"operations\":[{\"ns\":\"" + NS
                + "\",\"op\":\"put\",\"key\":\"" + key("x") + "\",\"value\":1}]}");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("kv_expiry_not_specified");
    }

    @Test
    void moreThan256OpsAreRefused() {
        List<KvOp> ops = new ArrayList<>();
        for (int i = 0; i < 257; i++) {
            ops.add(KvOp.get(NS, key("k" + i)));
        }
        QueenException e = catchThrowableOfType(() -> target.client().kv(ops), QueenException.class);
        assertThat(e.status()).isEqualTo(400);
        assertThat(target.client().kv(ops.subList(0, 256))).isInstanceOf(KvAnswer.Results.class);
    }

    @Test
    void aValueOver64KibIsTooLarge() {
        String big = "\"" + "x".repeat(70_000) + "\"";
        QueenException e = catchThrowableOfType(
                () -> target.client().kv(List.of(KvOp.upsert(NS, key("big"), RawJson.of(big), KvExpiry.forever()))),
                QueenException.class);
        assertThat(e.status()).isEqualTo(413);
        assertThat(e.retriable()).isFalse();
    }
}
