package io.queenlake.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PushItem;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import io.queenlake.source.it.SourceItRig.Seen;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * QueenSource's watermarks are a promise the broker's clock keeps: no record arrives at or below
 * a watermark while producers push concurrently into many partitions (some idle, some new), and
 * on an idle broker the watermark still passes the last record (the enumerator's lease and
 * presence writes tick the broker's safeTime).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HonestWatermarksITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @Test
    void noRecordArrivesAtOrBelowAWatermarkAndAnIdleBrokersWatermarkPassesTheLastRecord() throws Exception {
        try (SourceItRig rig = new SourceItRig()) {
            List<String> queues = List.of("busy", "quiet");
            List<PushItem> idle = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                idle.add(SourceItRig.item("busy", "idle-" + i, "{\"idle\":" + i + "}"));
                idle.add(SourceItRig.item("quiet", "idle-" + i, "{\"idle\":" + i + "}"));
            }
            rig.push(idle);
            AtomicInteger pushed = new AtomicInteger(idle.size());

            QueenSource source = rig.source(queues.toArray(String[]::new)).build();
            Configuration conf = new Configuration();
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none"); // a broken promise fails the test
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(2);

            try (Collected out = new Collected(env.fromSource(source, source.watermarkStrategy(), "queen")
                    .transform("watermark-promise", Types.STRING, new WatermarkPromise()).setParallelism(1)
                    .executeAndCollect("honest-watermarks"))) {
                long until = System.nanoTime() + Duration.ofSeconds(3).toNanos();
                for (int round = 0; System.nanoTime() < until; round++) {
                    List<PushItem> items = new ArrayList<>();
                    for (int p = 0; p < 8; p++) {
                        items.add(SourceItRig.item("busy", "steady-" + p, "{\"round\":" + round + "}"));
                    }
                    if (round % 10 == 0) {
                        items.add(SourceItRig.item("busy", "new-" + round, "{\"born\":" + round + "}"));
                        items.add(SourceItRig.item("quiet", "new-" + round, "{\"born\":" + round + "}"));
                    }
                    rig.push(items);
                    pushed.addAndGet(items.size());
                    Thread.sleep(20);
                }
                long lastPushNanos = System.nanoTime();

                SourceItRig.await("every pushed record", () -> records(out).size() >= pushed.get() || out.failure() != null,
                        Duration.ofSeconds(30), () -> records(out).size() + " of " + pushed.get());
                out.rethrowFailure();
                long lastStamp = records(out).stream().mapToLong(Seen::tsMicros).max().orElseThrow();
                long lastMillis = Math.floorDiv(lastStamp, 1000L);
                SourceItRig.await("a watermark past the last record", () -> lastWatermark(out) >= lastMillis || out.failure() != null,
                        Duration.ofSeconds(15), () -> "watermark " + lastWatermark(out) + ", last record at " + lastMillis);
                out.rethrowFailure();
                long idleMillis = (System.nanoTime() - lastPushNanos) / 1_000_000;
                System.out.println("idle broker: the watermark passed the last record " + idleMillis + " ms after the last push");

                List<Seen> records = records(out);
                Set<String> unique = new HashSet<>();
                records.forEach(s -> unique.add(s.key() + "@" + s.offset()));
                assertThat(records).hasSize(pushed.get());
                assertThat(unique).hasSize(pushed.get());
                assertThat(idleMillis).as("a few refresh periods (lease TTL/3 = 500 ms)").isLessThan(10_000);
            }
        }
    }

    private static List<Seen> records(Collected out) {
        List<Seen> records = new ArrayList<>();
        for (String line : out.lines()) {
            if (line.startsWith("R|")) {
                records.add(Seen.parse(line.substring(2)));
            }
        }
        return records;
    }

    private static long lastWatermark(Collected out) {
        long last = Long.MIN_VALUE;
        for (String line : out.lines()) {
            if (line.startsWith("W|")) {
                last = Math.max(last, Long.parseLong(line.substring(2)));
            }
        }
        return last;
    }

    /**
     * Fails the job when a record's timestamp is at or below the current watermark, or is not its
     * broker stamp's millisecond, or its stamp is at or below its queue's last frontier, or a
     * queue's frontier goes back, or a queue's event comes before its start; passes records and
     * watermarks on as lines. A queue is read by one reader, so its events arrive in its order.
     */
    static final class WatermarkPromise extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<QueueEvent, String> {

        private long watermark = Long.MIN_VALUE;
        private final Map<String, Long> frontiers = new HashMap<>();
        private final Set<String> started = new HashSet<>();

        @Override
        public void processElement(StreamRecord<QueueEvent> element) {
            QueueEvent event = element.getValue();
            if (event instanceof QueueStart start) {
                started.add(start.queue());
                return;
            }
            if (!started.contains(event.queue())) {
                throw new IllegalStateException(event + " came before its queue's start");
            }
            if (event instanceof QueueFrontier frontier) {
                Long before = frontiers.put(frontier.queue(), frontier.frontierMicros());
                if (before != null && frontier.frontierMicros() <= before) {
                    throw new IllegalStateException("frontier " + frontier + " did not rise above " + before);
                }
                return;
            }
            QueueRecord record = (QueueRecord) event;
            long stampMillis = Math.floorDiv(record.record().tsMicros(), 1000L);
            if (!element.hasTimestamp() || element.getTimestamp() != stampMillis) {
                throw new IllegalStateException("record " + record + " carries timestamp "
                        + element.getTimestamp() + ", not its stamp's millisecond " + stampMillis);
            }
            if (element.getTimestamp() <= watermark) {
                throw new IllegalStateException("watermark promise broken: " + record.queue() + "/"
                        + record.record().partition() + "@" + record.record().offset() + " at " + element.getTimestamp()
                        + " arrived after watermark " + watermark);
            }
            Long frontier = frontiers.get(record.queue());
            if (frontier != null && record.record().tsMicros() <= frontier) {
                throw new IllegalStateException("frontier promise broken: " + record.queue() + "/"
                        + record.record().partition() + "@" + record.record().offset() + " stamped "
                        + record.record().tsMicros() + " arrived after its queue's frontier " + frontier);
            }
            output.collect(new StreamRecord<>("R|" + Seen.line(record)));
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            watermark = Math.max(watermark, mark.getTimestamp());
            output.collect(new StreamRecord<>("W|" + mark.getTimestamp()));
            super.processWatermark(mark);
        }
    }
}
