package io.queenlake.devstack.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.HttpQueenClient;
import io.queenlake.broker.client.KvBatcher;
import io.queenlake.broker.client.KvExpect;
import io.queenlake.broker.client.KvExpiry;
import io.queenlake.broker.client.KvOp;
import io.queenlake.broker.client.KvReason;
import io.queenlake.broker.client.KvResult;
import io.queenlake.broker.client.QueenClient;
import io.queenlake.broker.client.QueenException;
import io.queenlake.broker.client.RawJson;
import io.queenlake.broker.kv.CommitPointers;
import io.queenlake.broker.kv.Intents;
import io.queenlake.broker.kv.ObservedIntent;
import io.queenlake.broker.kv.ObservedPointer;
import io.queenlake.broker.kv.SinkKeys;
import io.queenlake.broker.kv.UnreadableDocumentException;
import io.queenlake.format.manifest.Committed;
import io.queenlake.format.manifest.Intent;
import io.queenlake.format.model.Layout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit for the KV (issue 26) against the in-process dev broker: many committing lanes'
 * pointer moves and reads share a few KV calls through one {@link KvBatcher}, a stale precondition
 * loses alone, the broker's write budget is waited out, a broker that is down fails every waiting
 * lane with the client's exception. Assertions count calls and look at what is stored, never at
 * the clock.
 */
class KvBatcherAgainstDevBrokerTest {

    private static final String SINK = "lake";

    @TempDir
    Path dataDir;

    /** One lane's outcome: what it returned or what it threw. */
    private record Outcome<T>(T value, Throwable failure) {}

    @Test
    void threeHundredQueuesMovedFromThreeHundredThreadsAllApplyInAFewSharedCalls() throws Exception {
        // The broker's round trip is what lets the lanes' moves pile up behind the call in flight.
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().kvLatencyMs(200).build());
                KvBatcher batcher = new KvBatcher(client(broker), 100)) {
            CommitPointers pointers = new CommitPointers(client(broker), SINK, batcher);

            List<Outcome<CommitPointers.Move>> moves = inLanes(300,
                    i -> pointers.move(queue(i), ObservedPointer.absent(), pointer(1, "m-" + i)));

            assertThat(moves).allSatisfy(m -> {
                assertThat(m.failure()).isNull();
                assertThat(m.value().applied()).isTrue();
            });
            assertThat(batcher.writeOps()).isEqualTo(300);
            assertThat(batcher.writeCalls()).as("ceil(300/256) calls, and a few for lanes that came late")
                    .isLessThanOrEqualTo(2 + 3);
            System.out.println("KvBatcherAgainstDevBrokerTest: 300 moves in " + batcher.writeCalls() + " write calls");
            Map<String, ObservedPointer> stored = new CommitPointers(client(broker), SINK).readAll(queues(300));
            for (int i = 0; i < 300; i++) {
                assertThat(stored.get(queue(i))).as(queue(i)).isEqualTo(moves.get(i).value().now());
                assertThat(stored.get(queue(i)).pointer().orElseThrow().manifest()).isEqualTo("m-" + i);
            }
        }
    }

    @Test
    void aPutWhoseExpectIsStaleLosesAloneWithTheWinnersVersionWhileTheOthersOfItsCallApply() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build());
                // One write call every 2 s: the lanes' puts all wait for the call after the warm-up.
                KvBatcher batcher = new KvBatcher(client(broker), 0.5)) {
            CommitPointers direct = new CommitPointers(client(broker), SINK);
            List<ObservedPointer> observed = IntStream.range(0, 20)
                    .mapToObj(i -> direct.move(queue(i), ObservedPointer.absent(), pointer(1, "m-" + i)).now()).toList();
            CommitPointers.Move winner = direct.move(queue(7), observed.get(7), pointer(2, "the-other-writer"));
            batcher.put(KvOp.upsert(SinkKeys.NAMESPACE, "warm-up", RawJson.of("1"), KvExpiry.forever()));

            List<Outcome<KvResult.Written>> puts = inLanes(20, i -> batcher.put(new KvOp.Put(SinkKeys.NAMESPACE,
                    new SinkKeys(SINK).committed(queue(i)), RawJson.ofUtf8(pointer(2, "mine-" + i).toJson()),
                    KvExpiry.forever(), KvExpect.version(observed.get(i).version()), false)));

            assertThat(puts).allSatisfy(put -> assertThat(put.failure()).isNull());
            assertThat(batcher.writeCalls()).as("the warm-up, then all 20 puts in one call").isEqualTo(2);
            KvResult.Written lost = puts.get(7).value();
            assertThat(lost.applied()).isFalse();
            assertThat(lost.reason()).hasValue(KvReason.VERSION);
            assertThat(lost.version()).as("the winner's version").isEqualTo(winner.now().version());
            assertThat(Committed.fromJson(lost.value().orElseThrow().utf8()).manifest()).isEqualTo("the-other-writer");
            Map<String, ObservedPointer> stored = direct.readAll(queues(20));
            for (int i = 0; i < 20; i++) {
                String manifest = stored.get(queue(i)).pointer().orElseThrow().manifest();
                if (i == 7) {
                    assertThat(manifest).as("the winner's pointer stays").isEqualTo("the-other-writer");
                } else {
                    assertThat(puts.get(i).value().applied()).as(queue(i)).isTrue();
                    assertThat(manifest).as(queue(i)).isEqualTo("mine-" + i);
                    assertThat(stored.get(queue(i)).version()).isEqualTo(puts.get(i).value().version());
                }
            }
        }
    }

    @Test
    void throughABatcherAStaleMoveOrIntentIsAVerdictNotAnExceptionAsWithoutOne() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().build());
                KvBatcher batcher = new KvBatcher(client(broker), 100)) {
            CommitPointers pointers = new CommitPointers(client(broker), SINK, batcher);
            Intents intents = new Intents(client(broker), SINK, batcher);
            Intent first = intent(1);

            CommitPointers.Move moved = pointers.move("q", ObservedPointer.absent(), pointer(1, "m-1"));
            CommitPointers.Move stale = pointers.move("q", ObservedPointer.absent(), pointer(1, "m-again"));
            Intents.Write written = intents.write("q", ObservedIntent.absent(), first);
            Intents.Write staleIntent = intents.write("q", ObservedIntent.absent(), intent(2));

            assertThat(moved.applied()).isTrue();
            assertThat(stale).isEqualTo(new CommitPointers.Move(false, ObservedPointer.absent()));
            assertThat(pointers.read("q")).isEqualTo(moved.now());
            assertThat(written.applied()).isTrue();
            assertThat(staleIntent).isEqualTo(new Intents.Write(false, ObservedIntent.absent()));
            assertThat(intents.read("q")).isEqualTo(written.now()).isEqualTo(new Intents(client(broker), SINK).read("q"));
            assertThat(pointers.lease("q")).isEmpty();
            assertThat(batcher.writeOps()).isEqualTo(4);
            assertThat(batcher.readKeys()).isEqualTo(3);
        }
    }

    @Test
    void underAWriteBudgetOfTwoCallsASecondEveryMoveOfManyLanesIsAppliedAfterThe429sAreWaitedOut() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().kvWriteRate(2).build());
                KvBatcher batcher = new KvBatcher(client(broker), 100)) {
            CommitPointers pointers = new CommitPointers(client(broker), SINK, batcher);

            // Each lane commits 4 windows one after the other, as a committer does.
            List<Outcome<ObservedPointer>> lanes = inLanes(60, i -> {
                ObservedPointer now = ObservedPointer.absent();
                for (int k = 1; k <= 4; k++) {
                    CommitPointers.Move move = pointers.move(queue(i), now, pointer(k, "m-" + i + "-" + k));
                    if (!move.applied()) {
                        throw new AssertionError(queue(i) + " lost window " + k);
                    }
                    now = move.now();
                }
                return now;
            });

            assertThat(lanes).allSatisfy(lane -> assertThat(lane.failure()).isNull());
            assertThat(broker.kvWritesRefused()).as("the budget was hit and waited out").isPositive();
            System.out.println("KvBatcherAgainstDevBrokerTest: 240 moves in " + batcher.writeCalls() + " write calls, "
                    + broker.kvWritesRefused() + " of them refused 429 first");
            assertThat(batcher.writeOps()).isEqualTo(240);
            Map<String, ObservedPointer> stored = new CommitPointers(client(broker), SINK).readAll(queues(60));
            for (int i = 0; i < 60; i++) {
                assertThat(stored.get(queue(i))).isEqualTo(lanes.get(i).value());
                assertThat(stored.get(queue(i)).k()).isEqualTo(4);
            }
        }
    }

    @Test
    void whileTheBrokerIsDownEveryWaitingLaneGetsTheClientsExceptionAndOnceItIsBackALaterMoveApplies() throws Exception {
        DevBroker first = DevBroker.start(DevBrokerOptions.builder().dataDir(dataDir).build());
        int port = first.port();
        QueenClient client = client(first);
        try (KvBatcher batcher = new KvBatcher(client, 100)) {
            CommitPointers pointers = new CommitPointers(client, SINK, batcher);
            List<ObservedPointer> before = IntStream.range(0, 10)
                    .mapToObj(i -> pointers.move(queue(i), ObservedPointer.absent(), pointer(1, "m-" + i)).now()).toList();
            first.close();

            List<Outcome<CommitPointers.Move>> down = inLanes(10, i -> pointers.move(queue(i), before.get(i), pointer(2, "m")));

            assertThat(down).allSatisfy(lane -> assertThat(lane.failure()).isInstanceOfSatisfying(QueenException.class,
                    e -> assertThat(e.retriable()).as("a broker that is down is worth retrying").isTrue()));
            try (DevBroker again = DevBroker.start(DevBrokerOptions.builder().dataDir(dataDir).port(port).build())) {
                assertThat(pointers.read(queue(3))).as("nothing of the failed calls was applied").isEqualTo(before.get(3));
                CommitPointers.Move later = pointers.move(queue(3), before.get(3), pointer(2, "m-later"));
                assertThat(later.applied()).isTrue();
                assertThat(pointers.read(queue(3))).isEqualTo(later.now());
            }
        }
    }

    @Test
    void manyLanesReadsShareGetManyCallsAndAnUnreadablePointerFailsOnlyItsOwnReader() throws Exception {
        try (DevBroker broker = DevBroker.start(DevBrokerOptions.builder().kvLatencyMs(200).build());
                KvBatcher batcher = new KvBatcher(client(broker), 100)) {
            CommitPointers pointers = new CommitPointers(client(broker), SINK, batcher);
            inLanes(99, i -> pointers.move(queue(i), ObservedPointer.absent(), pointer(1, "m-" + i)));
            batcher.put(KvOp.upsert(SinkKeys.NAMESPACE, pointers.committedKey(queue(42)),
                    RawJson.of("{\"not\":\"a pointer\"}"), KvExpiry.forever()));

            List<Outcome<ObservedPointer>> reads = inLanes(100, i -> pointers.read(queue(i)));


            for (int i = 0; i < 100; i++) {
                if (i == 42) {
                    assertThat(reads.get(i).failure()).isInstanceOf(UnreadableDocumentException.class)
                            .hasMessageContaining(pointers.committedKey(queue(42)));
                } else if (i == 99) {
                    assertThat(reads.get(i).value()).as("never moved").isEqualTo(ObservedPointer.absent());
                } else {
                    assertThat(reads.get(i).value().pointer().map(Committed::manifest)).hasValue("m-" + i);
                }
            }
            assertThat(batcher.readKeys()).isEqualTo(100);
            System.out.println("KvBatcherAgainstDevBrokerTest: 100 reads in " + batcher.readCalls() + " read calls");
            assertThat(batcher.readCalls()).as("one getMany holds 256 keys; a few for lanes that came late")
                    .isLessThanOrEqualTo(1 + 3);
        }
    }

    private static QueenClient client(DevBroker broker) {
        return HttpQueenClient.builder().baseUrl(broker.url().toString()).build();
    }

    private static String queue(int i) {
        return "orders-" + i;
    }

    private static List<String> queues(int n) {
        return IntStream.range(0, n).mapToObj(KvBatcherAgainstDevBrokerTest::queue).toList();
    }

    private static Committed pointer(long k, String manifest) {
        return new Committed(k, ManualClock.START + k * 60_000_000L, manifest, 10, 100, 1_790_000_000_000L);
    }

    private static Intent intent(long k) {
        return new Intent(k, ManualClock.START + (k - 1) * 60_000_000L, ManualClock.START + k * 60_000_000L,
                "jsonl", "gzip", Layout.PER_PARTITION, "w");
    }

    /** Runs {@code lane} on {@code n} threads that start together, as committing lanes do; waits for all. */
    private static <T> List<Outcome<T>> inLanes(int n, IntFunction<T> lane) throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(n);
        List<Outcome<T>> outcomes = new ArrayList<>(Collections.nCopies(n, null));
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    outcomes.set(index, new Outcome<>(lane.apply(index), null));
                } catch (Throwable failure) {
                    outcomes.set(index, new Outcome<>(null, failure));
                }
            }, "lane-" + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        return outcomes;
    }
}
