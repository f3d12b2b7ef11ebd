package io.queenlake.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PushItem;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.it.SourceItRig.Seen;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * QueenSource delivers every record of every partition of every queue once per read, in offset
 * order per partition, with the payload bytes the producer pushed; also across a failover.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExactlyOnceReadITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    /** Names that need escaping in keys and split ids, and characters outside the BMP. */
    private static final List<String> QUEUES = List.of("orders/eu west", "ü-😀 queue", "plain");
    private static final List<String> PARTITIONS =
            List.of("cust 0", "c/1", "😀-2", "ü 3", "%41", "Default", "p@6", "𝄞 7", "a|b", "9", "x\\y", "last");

    private SourceItRig rig;
    /** What was pushed, per queue and partition, in push order (= offset order). */
    private final Map<String, List<String>> pushed = new HashMap<>();

    @BeforeEach
    void startBroker() throws Exception {
        rig = new SourceItRig();
        FailOnceAfterACheckpoint.reset();
    }

    @AfterEach
    void stopBroker() {
        rig.close();
    }

    /** One push with one new record for every partition of every queue. */
    private void pushRound(int round) {
        List<PushItem> items = new ArrayList<>();
        for (String queue : QUEUES) {
            for (String partition : PARTITIONS) {
                String payload = "{\"round\":" + round + ",\"big\":123456789012345678901234567890,\"f\":1.50,"
                        + "\"s\":\"" + partition.replace("\\", "\\\\") + " ✓\"}";
                items.add(SourceItRig.item(queue, partition, payload));
                pushed.computeIfAbsent(queue + "\u0000" + partition, k -> new ArrayList<>()).add(payload);
            }
        }
        rig.push(items);
    }

    private int pushedCount() {
        return pushed.values().stream().mapToInt(List::size).sum();
    }

    private void assertExactlyOnceInOrder(List<Seen> seen) {
        Map<String, List<Seen>> byPartition = new HashMap<>();
        seen.forEach(s -> byPartition.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s));
        assertThat(byPartition.keySet()).containsExactlyInAnyOrderElementsOf(pushed.keySet());
        for (Map.Entry<String, List<String>> p : pushed.entrySet()) {
            List<Seen> got = byPartition.get(p.getKey());
            assertThat(got).as("records of %s", p.getKey().replace('\u0000', '/')).hasSameSizeAs(p.getValue());
            for (int offset = 0; offset < got.size(); offset++) {
                assertThat(got.get(offset).offset()).as("offset order of %s", p.getKey()).isEqualTo(offset);
                assertThat(got.get(offset).payload()).isEqualTo(p.getValue().get(offset));
                assertThat(got.get(offset).lost()).isEmpty();
            }
        }
    }

    @Test
    void everyRecordOfEveryQueueAndPartitionArrivesOnceInOffsetOrderWithThePushedBytes() throws Exception {
        for (int round = 0; round < 10; round++) {
            pushRound(round);
        }
        QueenSource source = rig.source(QUEUES.toArray(String[]::new)).build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);

        try (Collected out = new Collected(env.fromSource(source, source.watermarkStrategy(), "queen")
                .flatMap(Seen::lines).returns(Types.STRING)
                .executeAndCollect("exactly-once-read"))) {
            SourceItRig.await("every pushed record", () -> out.size() >= pushedCount() || out.failure() != null,
                    Duration.ofSeconds(60), () -> out.size() + " of " + pushedCount());
            out.rethrowFailure();
            Thread.sleep(1_000); // a duplicate would arrive now
            assertExactlyOnceInOrder(SourceItRig.parseAll(out.lines()));
        }
    }

    @Test
    void aFailoverAfterACheckpointStillDeliversEveryRecordExactlyOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            pushRound(round);
        }
        QueenSource source = rig.source(QUEUES.toArray(String[]::new)).build();
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);

        // With checkpointing, the collect sink hands out only what a completed checkpoint covers: exactly once.
        try (Collected out = new Collected(env.fromSource(source, source.watermarkStrategy(), "queen")
                .filter(e -> e instanceof QueueRecord).map(new FailOnceAfterACheckpoint()).returns(Types.STRING)
                .executeAndCollect("exactly-once-failover"))) {
            for (int round = 5; round < 25; round++) {
                pushRound(round); // producers keep pushing while the job runs, fails and restores
                Thread.sleep(60);
            }
            SourceItRig.await("the induced failover", FailOnceAfterACheckpoint.FAILED::get, Duration.ofSeconds(30),
                    () -> FailOnceAfterACheckpoint.COMPLETED.get() + " checkpoints");
            SourceItRig.await("every pushed record", () -> out.size() >= pushedCount() || out.failure() != null,
                    Duration.ofSeconds(60), () -> out.size() + " of " + pushedCount());
            out.rethrowFailure();
            Thread.sleep(1_000);
            assertExactlyOnceInOrder(SourceItRig.parseAll(out.lines()));
        }
    }

    /** Throws once, some records after the first completed checkpoint, so the job restores from it. */
    static final class FailOnceAfterACheckpoint extends RichMapFunction<QueueEvent, String> implements CheckpointListener {

        static final AtomicBoolean FAILED = new AtomicBoolean();
        static final AtomicInteger COMPLETED = new AtomicInteger();
        private int sinceCheckpoint;

        static void reset() {
            FAILED.set(false);
            COMPLETED.set(0);
        }

        @Override
        public String map(QueueEvent event) {
            QueueRecord record = (QueueRecord) event;
            if (COMPLETED.get() > 0 && ++sinceCheckpoint > 40 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("induced failover after a completed checkpoint");
            }
            return Seen.line(record);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            COMPLETED.incrementAndGet();
        }
    }
}
