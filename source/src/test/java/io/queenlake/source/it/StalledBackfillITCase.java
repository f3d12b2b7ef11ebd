package io.queenlake.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PushItem;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueRecord;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/ARCHITECTURE.md "Windows": a backfill keeps buffered state near one window, also when the broker is
 * slow. Two readers backfill a long log while the broker holds back the first fetch answer of one
 * of them for a few seconds (as a broker in a long garbage collection does); the windows a window
 * operator downstream of both readers holds open stay a few, not the log.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StalledBackfillITCase {

    private static final long WINDOW_MS = 1_000;
    private static final int PARTITIONS = 8;
    private static final int WINDOWS = 20;
    private static final int PUSHES_PER_WINDOW = 5;
    private static final int RECORDS_PER_PUSH = 15;
    private static final long STALL_MS = 5_000;
    private static final String PAYLOAD = "\"" + "x".repeat(1_000) + "\"";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @Test
    void aBackfillWhoseFirstFetchAnswerStallsKeepsAtMostThreeWindowsAboveTheWatermark() throws Exception {
        try (SourceItRig rig = new SourceItRig()) {
            for (int push = 0; push < WINDOWS * PUSHES_PER_WINDOW; push++) {
                List<PushItem> items = new ArrayList<>();
                for (int p = 0; p < PARTITIONS; p++) {
                    for (int r = 0; r < RECORDS_PER_PUSH; r++) {
                        items.add(SourceItRig.item("backfill", "p" + p, PAYLOAD));
                    }
                }
                rig.push(items);
                rig.skewMicros.addAndGet(WINDOW_MS * 1000 / PUSHES_PER_WINDOW);
            }
            int records = WINDOWS * PUSHES_PER_WINDOW * PARTITIONS * RECORDS_PER_PUSH;

            // The first fetch answer that carries partition p0 comes late: its reader has read nothing yet.
            AtomicBoolean stalled = new AtomicBoolean();
            try (StallingBrokerProxy proxy = new StallingBrokerProxy(URI.create(rig.broker.url().toString()),
                    (path, body) -> path.equals("/api/v1/fetch") && body.contains("\"partition\":\"p0\"")
                            && stalled.compareAndSet(false, true) ? STALL_MS : 0)) {
                QueenSource source = rig.source("backfill").brokerUrl(proxy.url()).maxWindowMs(WINDOW_MS).build();
                Configuration conf = new Configuration();
                conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
                StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
                env.setParallelism(2);
                OpenWindows.reset();
                env.fromSource(source, source.watermarkStrategy(), "queen")
                        .transform("open-windows", Types.STRING, new OpenWindows()).setParallelism(1)
                        .sinkTo(new DiscardingSink<>()).setParallelism(1);
                JobClient job = env.executeAsync("stalled-backfill");
                try {
                    SourceItRig.await("every record at the window operator", () -> OpenWindows.records.get() >= records,
                            Duration.ofSeconds(90), () -> OpenWindows.records.get() + " of " + records);
                } finally {
                    job.cancel().get(30, TimeUnit.SECONDS);
                }
            }
            int perWindow = PUSHES_PER_WINDOW * PARTITIONS * RECORDS_PER_PUSH;
            System.out.printf("backfill of %d windows, first answer of one reader held %d ms: at most %d records"
                    + " (%.2f windows) in %d windows open above the watermark%n", WINDOWS, STALL_MS,
                    OpenWindows.peakRecords.get(), OpenWindows.peakRecords.get() / (double) perWindow,
                    OpenWindows.peakWindows.get());
            assertThat(stalled).as("the broker held an answer back").isTrue();
            // A window of read-ahead per reader, what alignment lets through before it pauses a reader
            // (Flink checks the watermark of three update intervals ago), and the window being filled.
            assertThat(OpenWindows.peakRecords.get()).as("records open above the watermark: a few windows, never the log")
                    .isLessThanOrEqualTo(3L * perWindow);
        }
    }

    /**
     * What a window operator downstream of every reader holds: the records of each window of broker
     * time that the watermark has not closed yet. It takes about a millisecond a record, as a busy
     * window task does, so the readers run ahead of it as far as they let themselves.
     */
    static final class OpenWindows extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<QueueRecord, String> {

        static final AtomicLong records = new AtomicLong();
        static final AtomicInteger peakWindows = new AtomicInteger();
        static final AtomicLong peakRecords = new AtomicLong();

        private final TreeMap<Long, Long> open = new TreeMap<>();
        private long held;

        static void reset() {
            records.set(0);
            peakWindows.set(0);
            peakRecords.set(0);
        }

        @Override
        public void processElement(StreamRecord<QueueRecord> element) {
            open.merge(Math.floorDiv(element.getTimestamp(), WINDOW_MS), 1L, Long::sum);
            held++;
            peakWindows.accumulateAndGet(open.size(), Math::max);
            peakRecords.accumulateAndGet(held, Math::max);
            records.incrementAndGet();
            LockSupport.parkNanos(1_000_000L);
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            // A window closes once the watermark reaches its last millisecond.
            while (!open.isEmpty() && (open.firstKey() + 1) * WINDOW_MS - 1 <= mark.getTimestamp()) {
                held -= open.pollFirstEntry().getValue();
            }
            super.processWatermark(mark);
        }
    }
}
