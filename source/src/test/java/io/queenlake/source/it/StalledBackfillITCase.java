package io.queenlake.source.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.broker.client.PushItem;
import io.queenlake.source.QueenSource;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * docs/ARCHITECTURE.md "Windows": a backfill keeps buffered state near one window, also when the
 * broker is slow, and a queue held back does not hold back another. Two queues, one per reader,
 * backfill a long log while the broker holds back the first fetch answer of one of them for a few
 * seconds (as a broker in a long garbage collection does); a window operator downstream of both,
 * which closes each queue's windows on that queue's own frontier, holds a few windows open, not
 * the log, and the other queue's windows close meanwhile.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StalledBackfillITCase {

    private static final long WINDOW_MS = 1_000;
    private static final int PARTITIONS_PER_QUEUE = 4;
    private static final List<String> QUEUES = List.of("stalled", "flowing");
    private static final int WINDOWS = 20;
    private static final int PUSHES_PER_WINDOW = 5;
    private static final int RECORDS_PER_PUSH = 15;
    private static final long STALL_MS = 5_000;
    private static final String PAYLOAD = "\"" + "x".repeat(1_000) + "\"";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    @Test
    void aBackfillWhoseFirstFetchAnswerStallsKeepsAFewWindowsOpenAndTheOtherQueueMovesOn() throws Exception {
        try (SourceItRig rig = new SourceItRig()) {
            for (int push = 0; push < WINDOWS * PUSHES_PER_WINDOW; push++) {
                List<PushItem> items = new ArrayList<>();
                for (String queue : QUEUES) {
                    for (int p = 0; p < PARTITIONS_PER_QUEUE; p++) {
                        for (int r = 0; r < RECORDS_PER_PUSH; r++) {
                            items.add(SourceItRig.item(queue, queue.charAt(0) + "" + p, PAYLOAD));
                        }
                    }
                }
                rig.push(items);
                rig.skewMicros.addAndGet(WINDOW_MS * 1000 / PUSHES_PER_WINDOW);
            }
            int records = WINDOWS * PUSHES_PER_WINDOW * QUEUES.size() * PARTITIONS_PER_QUEUE * RECORDS_PER_PUSH;

            // The first fetch answer of the stalled queue's reader comes late: it has read nothing yet.
            AtomicBoolean stalled = new AtomicBoolean();
            try (StallingBrokerProxy proxy = new StallingBrokerProxy(URI.create(rig.broker.url().toString()),
                    (path, body) -> path.equals("/api/v1/fetch") && body.contains("\"partition\":\"s0\"")
                            && stalled.compareAndSet(false, true) ? STALL_MS : 0)) {
                QueenSource source = rig.source(QUEUES.toArray(String[]::new)).brokerUrl(proxy.url())
                        .maxWindowMs(WINDOW_MS).build();
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
            int perWindow = PUSHES_PER_WINDOW * PARTITIONS_PER_QUEUE * RECORDS_PER_PUSH; // one queue's window
            System.out.printf("backfill of %d windows in 2 queues, first answer of one held %d ms: at most %d records"
                    + " (%.2f windows of a queue) in %d windows open; %d windows of the other queue closed before the"
                    + " stalled one's first record%n", WINDOWS, STALL_MS, OpenWindows.peakRecords.get(),
                    OpenWindows.peakRecords.get() / (double) perWindow, OpenWindows.peakWindows.get(),
                    OpenWindows.closedBeforeStalledStarted.get());
            assertThat(stalled).as("the broker held an answer back").isTrue();
            assertThat(OpenWindows.closedBeforeStalledStarted.get())
                    .as("the flowing queue's windows closed on its own frontier while the other queue was stalled")
                    .isPositive();
            // Per queue: a window of read-ahead, one ask (half a window) past it, and the window being
            // filled; at most both queues at once.
            assertThat(OpenWindows.peakRecords.get()).as("records open: a few windows per queue, never the log")
                    .isLessThanOrEqualTo(2 * 3L * perWindow);
        }
    }

    /**
     * What a window operator downstream of every reader holds: per queue, the records of each window
     * of broker time that the queue's frontier has not closed yet. It takes about a millisecond a
     * record, as a busy window task does, so the readers run ahead of it as far as they let themselves.
     */
    static final class OpenWindows extends AbstractStreamOperator<String>
            implements OneInputStreamOperator<QueueEvent, String> {

        static final AtomicLong records = new AtomicLong();
        static final AtomicInteger peakWindows = new AtomicInteger();
        static final AtomicLong peakRecords = new AtomicLong();
        static final AtomicInteger closedBeforeStalledStarted = new AtomicInteger();

        private final Map<String, TreeMap<Long, Long>> open = new HashMap<>();
        private long held;
        private int windows;
        private boolean stalledStarted;

        static void reset() {
            records.set(0);
            peakWindows.set(0);
            peakRecords.set(0);
            closedBeforeStalledStarted.set(0);
        }

        @Override
        public void processElement(StreamRecord<QueueEvent> element) {
            QueueEvent event = element.getValue();
            if (event instanceof QueueFrontier frontier) {
                close(frontier);
            } else if (event instanceof QueueRecord record) {
                stalledStarted |= record.queue().equals("stalled");
                long window = Math.floorDiv(record.record().tsMicros(), WINDOW_MS * 1000);
                if (open.computeIfAbsent(record.queue(), q -> new TreeMap<>()).merge(window, 1L, Long::sum) == 1L) {
                    windows++;
                }
                held++;
                peakWindows.accumulateAndGet(windows, Math::max);
                peakRecords.accumulateAndGet(held, Math::max);
                records.incrementAndGet();
                LockSupport.parkNanos(1_000_000L);
            }
        }

        /** A window closes once its queue's frontier reaches its last microsecond. */
        private void close(QueueFrontier frontier) {
            TreeMap<Long, Long> queue = open.get(frontier.queue());
            while (queue != null && !queue.isEmpty()
                    && (queue.firstKey() + 1) * WINDOW_MS * 1000 - 1 <= frontier.frontierMicros()) {
                held -= queue.pollFirstEntry().getValue();
                windows--;
                if (!stalledStarted) {
                    closedBeforeStalledStarted.incrementAndGet();
                }
            }
        }
    }
}
