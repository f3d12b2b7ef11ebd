package io.queenlake.source.reader;

import static io.queenlake.source.reader.ReaderRig.seconds;
import static io.queenlake.source.reader.ReaderRig.split;
import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.QueueSplit;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * docs/ARCHITECTURE.md "Time": a whole fetch call the broker fails over one queue's partitions
 * holds back only that queue; a broker that fails every queue, or asks to slow down, backs the
 * reader off as a whole without asking queue by queue. The failing calls go to a
 * {@link RefusingBroker} (a 500, a 503, a 429 with {@code Retry-After}: answers the dev broker never
 * gives), everything else to the dev broker.
 */
class ReaderCallFaultsTest {

    private static final long GUARD_MS = 20;
    private static final long WINDOW_MS = 60_000;

    private ReaderRig rig;
    private QueueSplit healthy;
    private QueueSplit faulty;

    @BeforeEach
    void startRig() throws Exception {
        rig = ReaderRig.start(GUARD_MS, WINDOW_MS);
        rig.push("healthy", "h", "1");
        rig.push("faulty", "f", "1");
        healthy = split(PartitionSplit.atOffset("healthy", "h", rig.ids("healthy").get("h"), 0, Long.MIN_VALUE));
        faulty = split(PartitionSplit.atOffset("faulty", "f", rig.ids("faulty").get("f"), 0, Long.MIN_VALUE));
    }

    @AfterEach
    void closeRig() throws Exception {
        rig.close();
    }

    private long recordsOf(String queue) {
        return rig.output.records.stream().filter(r -> r.record().queue().equals(queue)).count();
    }

    @Test
    void aQueueWhoseCallsTheBrokerFailsIsFetchedApartAndTheOtherQueueKeepsFlowing() throws Exception {
        try (RefusingBroker refusing = new RefusingBroker(500, null)) {
            rig.readerClient.refuse(refusing.client(), "faulty");
            rig.assign(healthy, faulty);
            rig.pollUntil("healthy's first record", () -> recordsOf("healthy") == 1, seconds(5));
            assertThat(rig.gauge(QueenSourceMetrics.FAILING_QUEUES)).isEqualTo(1);

            // While faulty is refused, healthy's next record comes within a round, not after faulty's backoff.
            rig.push("healthy", "h", "2");
            long pushed = System.nanoTime();
            rig.send(rig.passNow(healthy, faulty));
            rig.pollUntil("healthy's second record", () -> recordsOf("healthy") == 2, seconds(5));
            long tookMs = (System.nanoTime() - pushed) / 1_000_000;
            int faultyCalls = rig.readerClient.callsWith("faulty");
            rig.pollFor(Duration.ofSeconds(2));
            int faultyCallsIn2s = rig.readerClient.callsWith("faulty") - faultyCalls;
            System.out.printf("healthy's record while faulty failed: emitted %d ms after its push; faulty asked %d times"
                    + " in 2 s%n", tookMs, faultyCallsIn2s);
            assertThat(tookMs).as("healthy waits for no backoff of faulty's").isLessThan(1_000);
            assertThat(faultyCallsIn2s).as("faulty's own calls back off").isBetween(1, 8);
            assertThat(recordsOf("faulty")).isZero();

            rig.readerClient.refuse(null);
            rig.pollUntil("faulty's record once the broker answers it", () -> recordsOf("faulty") == 1, seconds(10));
            rig.pollFor(Duration.ofMillis(200));
            assertThat(rig.gauge(QueenSourceMetrics.FAILING_QUEUES)).isEqualTo(0);
            assertThat(rig.offsetsOf("healthy", "h")).containsExactly(0L, 1L);
            assertThat(rig.offsetsOf("faulty", "f")).containsExactly(0L);
        }
    }

    @Test
    void aBrokerFailingEveryQueueBacksTheReaderOffAsAWhole() throws Exception {
        try (RefusingBroker refusing = new RefusingBroker(503, null)) {
            rig.readerClient.refuse(refusing.client(), "healthy", "faulty");
            rig.assign(healthy, faulty);
            rig.pollFor(Duration.ofSeconds(2));
            int calls = rig.readerClient.fetchCalls.get();

            System.out.printf("a broker failing every queue: %d fetch calls in 2 s%n", calls);
            // 100 ms doubling: about 5 rounds in 2 s, each a shared call and one per queue.
            assertThat(calls).as("the reader backs off as a whole").isBetween(1, 20);
            assertThat(rig.gauge(QueenSourceMetrics.FAILING_QUEUES)).as("no queue is to blame").isEqualTo(0);
            assertThat(rig.output.records).isEmpty();

            rig.readerClient.refuse(null);
            rig.pollUntil("both records once the broker answers", () -> rig.output.records.size() == 2, seconds(10));
        }
    }

    @Test
    void aBrokerAskingToSlowDownIsNotAskedQueueByQueue() throws Exception {
        try (RefusingBroker refusing = new RefusingBroker(429, "1")) {
            rig.readerClient.refuse(refusing.client(), "healthy", "faulty");
            rig.assign(healthy, faulty);
            rig.pollFor(Duration.ofMillis(1_500));
            int calls = rig.readerClient.fetchCalls.get();

            assertThat(calls).as("one call, then Retry-After's second").isBetween(1, 2);
            assertThat(rig.readerClient.callsWith("healthy")).as("every call asked for both queues").isEqualTo(calls);
            assertThat(rig.readerClient.callsWith("faulty")).isEqualTo(calls);
            assertThat(rig.gauge(QueenSourceMetrics.FAILING_QUEUES)).isEqualTo(0);
        }
    }
}
