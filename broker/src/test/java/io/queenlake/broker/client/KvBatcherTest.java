package io.queenlake.broker.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the KV batcher promises its lanes, against a client answered in memory that can hold a call
 * in flight: so the test, not the scheduler, decides which ops wait for which call. Its behaviour
 * against the real dev broker is KvBatcherAgainstDevBrokerTest (devstack).
 */
class KvBatcherTest {

    private static final String NS = "queen-s3";

    private final ExecutorService lanes = Executors.newCachedThreadPool();
    private final List<KvBatcher> batchers = new ArrayList<>();

    @AfterEach
    void stop() {
        batchers.forEach(KvBatcher::close);
        lanes.shutdownNow();
    }

    @Test
    void putsThatArriveWhileACallIsInFlightAllGoInTheNextCallsOfAtMost256Each() throws Exception {
        ScriptedKvClient client = ScriptedKvClient.holdingFirstCall();
        KvBatcher batcher = unpaced(client);
        Future<KvResult.Written> first = lanes.submit(() -> batcher.put(put("q-first", 0)));
        List<Future<KvResult.Written>> more =
                queuedBehindTheCallInFlight(client, 300, i -> batcher.put(put("q" + i, 0)), batcher::waitingWrites);

        client.releaseFirstCall();

        assertThat(first.get().applied()).isTrue();
        for (Future<KvResult.Written> put : more) {
            assertThat(put.get().applied()).isTrue();
        }
        assertThat(client.calls).extracting(c -> c.ops().size()).containsExactly(1, 256, 44);
        assertThat(batcher.writeCalls()).isEqualTo(3);
        assertThat(batcher.writeOps()).isEqualTo(301);
        assertThat(client.calls).allSatisfy(c -> {
            assertThat(c.daemon()).as("a daemon thread").isTrue();
            assertThat(c.thread()).isEqualTo("kv-batcher-writes http://scripted");
        });
    }

    @Test
    void eachPutIsSentAsGivenWithItsOwnExpectAndARequiredPutIsRefused() throws Exception {
        ScriptedKvClient client = ScriptedKvClient.holdingFirstCall();
        KvBatcher batcher = unpaced(client);
        lanes.submit(() -> batcher.put(put("warm-up", 0)));
        List<KvOp.Put> puts = List.of(put("a", 0), put("b", 7), put("c", 12));
        List<Future<KvResult.Written>> written =
                queuedBehindTheCallInFlight(client, 3, i -> batcher.put(puts.get(i)), batcher::waitingWrites);
        client.releaseFirstCall();
        for (Future<KvResult.Written> w : written) {
            w.get();
        }

        assertThat(client.calls.get(1).ops()).containsExactlyInAnyOrderElementsOf(puts);
        KvOp.Put required = new KvOp.Put(NS, "r", RawJson.of("1"), KvExpiry.forever(), KvExpect.absent(), true);
        assertThatThrownBy(() -> batcher.put(required)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be required");
        assertThat(batcher.writeCalls()).as("the required put was never sent").isEqualTo(2);
    }

    @Test
    void aCallThatFailsAsAWholeFailsEveryPutOfThatCallWithItsQueenExceptionAndALaterCallWorks() throws Exception {
        ScriptedKvClient client = ScriptedKvClient.holdingFirstCall();
        QueenException unavailable = QueenException.status(client.broker(), Route.KV, 503, "unavailable", null, -1);
        client.failures.add(Optional.empty());
        client.failures.add(Optional.of(unavailable));
        KvBatcher batcher = unpaced(client);
        lanes.submit(() -> batcher.put(put("warm-up", 0)));
        List<Future<KvResult.Written>> failing =
                queuedBehindTheCallInFlight(client, 10, i -> batcher.put(put("q" + i, 0)), batcher::waitingWrites);

        client.releaseFirstCall();

        for (Future<KvResult.Written> put : failing) {
            assertThat(failureOf(put)).as("the call's own exception, still retriable").isSameAs(unavailable);
        }
        assertThat(unavailable.retriable()).isTrue();
        assertThat(batcher.put(put("later", 0)).applied()).as("the next call works").isTrue();
        assertThat(client.calls).extracting(c -> c.ops().size()).containsExactly(1, 10, 1);
    }

    @Test
    void atFiveWriteCallsASecondNoCallStartsWithinAFifthOfASecondOfThePreviousOne() throws Exception {
        AtomicLong clock = new AtomicLong();
        CallPacing pacing = new CallPacing(5, clock::get, delay -> clock.addAndGet(delay.toNanos()));
        List<Long> starts = new CopyOnWriteArrayList<>();
        KvBatcher batcher = batcher(new KvBatcher(ScriptedKvClient.answering(), () -> {
            pacing.await();
            starts.add(clock.get());
        }));

        for (int i = 0; i < 10; i++) {
            batcher.put(put("sequential-" + i, 0));
        }
        assertThat(starts).as("10 sequential puts: 10 calls, one each 200 ms of the (test's) clock")
                .containsExactly(IntStream.range(0, 10).mapToObj(i -> i * 200_000_000L).toArray(Long[]::new));
        for (int round = 0; round < 5; round++) {
            int r = round;
            for (Future<KvResult.Written> put : inLanes(40, i -> batcher.put(put("concurrent-" + r + "-" + i, 0)))) {
                put.get();
            }
        }

        assertThat(batcher.writeOps()).isEqualTo(210);
        assertThat(batcher.writeCalls()).isEqualTo(starts.size()).isLessThanOrEqualTo(210);
        for (int i = 1; i < starts.size(); i++) {
            assertThat(starts.get(i) - starts.get(i - 1)).as("gap before call %d", i).isGreaterThanOrEqualTo(200_000_000L);
        }
        for (long from : starts) {
            assertThat(starts.stream().filter(t -> t >= from && t < from + 1_000_000_000L).count())
                    .as("calls in the second from %d ns", from).isLessThanOrEqualTo(5);
        }
    }

    @Test
    void getsOfManyThreadsShareGetManyCallsOfTheirOwnNeverMixedWithPuts() throws Exception {
        ScriptedKvClient client = ScriptedKvClient.holdingFirstCall();
        IntStream.range(0, 300).filter(i -> i % 3 != 0).forEach(i -> client.store(namespace(i), "k" + i, "" + i));
        KvBatcher batcher = unpaced(client);
        lanes.submit(() -> batcher.get(NS, "warm-up"));
        List<Future<Optional<KvRow>>> gets =
                queuedBehindTheCallInFlight(client, 300, i -> batcher.get(namespace(i), "k" + i), batcher::waitingReads);
        List<Future<KvResult.Written>> puts = inLanes(5, i -> batcher.put(put("p" + i, 0)));

        client.releaseFirstCall();

        for (int i = 0; i < 300; i++) {
            assertThat(gets.get(i).get().map(row -> row.value().text())).as("key k%d", i)
                    .isEqualTo(i % 3 == 0 ? Optional.empty() : Optional.of("" + i));
        }
        for (Future<KvResult.Written> put : puts) {
            assertThat(put.get().applied()).isTrue();
        }
        List<ScriptedKvClient.Call> reads = client.calls.stream().filter(c -> c.ops().get(0) instanceof KvOp.GetMany).toList();
        assertThat(reads).extracting(c -> c.ops().stream().mapToInt(op -> ((KvOp.GetMany) op).keys().size()).sum())
                .containsExactly(1, 256, 44);
        assertThat(reads).allSatisfy(c -> assertThat(c.ops()).allMatch(KvOp.GetMany.class::isInstance));
        assertThat(client.calls).filteredOn(c -> !reads.contains(c))
                .allSatisfy(c -> assertThat(c.ops()).allMatch(KvOp.Put.class::isInstance));
        assertThat(batcher.readCalls()).isEqualTo(3);
        assertThat(batcher.readKeys()).isEqualTo(301);
    }

    @Test
    void keysAGetManyLeftOutAsTruncatedAreAskedAgainInAFollowUpCall() throws Exception {
        ScriptedKvClient client = ScriptedKvClient.holdingFirstCall();
        IntStream.range(0, 10).forEach(i -> client.store(NS, "k" + i, "" + i));
        client.truncations.add(0);
        client.truncations.add(4);
        KvBatcher batcher = unpaced(client);
        lanes.submit(() -> batcher.get(NS, "warm-up"));
        List<Future<Optional<KvRow>>> gets =
                queuedBehindTheCallInFlight(client, 10, i -> batcher.get(NS, "k" + i), batcher::waitingReads);

        client.releaseFirstCall();

        for (int i = 0; i < 10; i++) {
            assertThat(gets.get(i).get().map(row -> row.value().text())).hasValue("" + i);
        }
        assertThat(batcher.readCalls()).as("warm-up, the 10 keys, the 4 left out").isEqualTo(3);
        assertThat(batcher.readKeys()).isEqualTo(1 + 10 + 4);
    }

    @Test
    void closeFailsTheWaitingCallersWithAClearMessageAndRefusesLaterOps() throws Exception {
        ScriptedKvClient client = ScriptedKvClient.holdingFirstCall();
        KvBatcher batcher = unpaced(client);
        Future<KvResult.Written> inFlight = lanes.submit(() -> batcher.put(put("in-flight", 0)));
        List<Future<KvResult.Written>> waiting =
                queuedBehindTheCallInFlight(client, 5, i -> batcher.put(put("q" + i, 0)), batcher::waitingWrites);

        batcher.close();

        for (Future<KvResult.Written> put : waiting) {
            assertThat(failureOf(put)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("was closed before this KV operation was sent, so it was not applied");
        }
        assertThat(failureOf(inFlight)).isInstanceOfSatisfying(QueenException.class,
                e -> assertThat(e.kind()).isEqualTo(QueenException.Kind.INTERRUPTED));
        assertThatThrownBy(() -> batcher.put(put("after", 0))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("was closed");
        assertThatThrownBy(() -> batcher.get(NS, "after")).isInstanceOf(IllegalStateException.class);
        assertThat(client.calls).hasSize(1);
    }

    private KvBatcher unpaced(QueenClient client) {
        return batcher(new KvBatcher(client, CallStream.Turn.NONE));
    }

    private KvBatcher batcher(KvBatcher batcher) {
        batchers.add(batcher);
        return batcher;
    }

    private static String namespace(int i) {
        return i % 2 == 0 ? NS : "other";
    }

    private static KvOp.Put put(String key, long expect) {
        return new KvOp.Put(NS, key, RawJson.of("{\"k\":1}"), KvExpiry.forever(),
                expect == 0 ? KvExpect.absent() : KvExpect.version(expect), false);
    }

    private <T> List<Future<T>> inLanes(int n, IntFunction<T> work) {
        return IntStream.range(0, n).mapToObj(i -> lanes.submit(() -> work.apply(i))).toList();
    }

    /** Once the client holds the first call in flight: {@code n} lanes run {@code lane}, and all their ops wait for the next call. */
    private <T> List<Future<T>> queuedBehindTheCallInFlight(ScriptedKvClient client, int n, IntFunction<T> lane,
            IntSupplier waiting) throws InterruptedException {
        client.firstCallStarted.await();
        List<Future<T>> queued = inLanes(n, lane);
        waitUntil(() -> waiting.getAsInt() == n);
        return queued;
    }

    private static Throwable failureOf(Future<?> future) throws InterruptedException {
        try {
            future.get();
            throw new AssertionError("expected the call to fail");
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** Waits for a state the test arranged (not a timing assertion): gives up only if it never comes. */
    private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("the awaited state never came");
            }
            Thread.sleep(5);
        }
    }
}
