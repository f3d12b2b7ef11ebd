package io.queenlake.connector.window;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.jsonl.Compression;
import io.queenlake.format.model.Align;
import io.queenlake.format.object.Format;
import io.queenlake.format.model.LogRecord;
import io.queenlake.source.serde.QueueEventTypeInfo;
import io.queenlake.source.serde.QueueRecordTypeInfo;
import io.queenlake.source.OpenWindows;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import io.queenlake.source.split.PartitionSplit;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The window operator in a real Flink job, chained behind a stand-in for the source's reader (it
 * turns records into queue events, as the reader will): the windows close on the queue's frontier,
 * the end of the bounded input (Flink's final watermark) closes nothing more, the reader's thread
 * finds the windows through {@link OpenWindows}, and the path runs with generic types (Kryo) off.
 */
class LakeWindowOperatorITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final long T0 = 1_791_007_200_000_000L;
    private static final long WINDOW_MS = 60_000;
    private static final long W = WINDOW_MS * 1000;

    /** What the stand-in reader saw from its own thread when its input ended. */
    static final AtomicReference<Optional<OpenWindows.Snapshot>> SEEN_AT_END = new AtomicReference<>();

    private static DevBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /**
     * A stand-in for the reader: QueueStart before a queue's first record, then each record
     * followed by the frontier just below it (records of one stamp are not split).
     */
    static final class AsQueueEvents extends AbstractStreamOperator<QueueEvent>
            implements OneInputStreamOperator<QueueRecord, QueueEvent> {
        private transient Set<String> started;

        @Override
        public void open() throws Exception {
            super.open();
            started = new HashSet<>();
        }

        @Override
        public void processElement(StreamRecord<QueueRecord> element) {
            QueueRecord r = element.getValue();
            if (started.add(r.queue())) {
                output.collect(new StreamRecord<>(new QueueStart(r.queue(), Optional.empty())));
            }
            output.collect(new StreamRecord<>(r));
            output.collect(new StreamRecord<>(new QueueFrontier(r.queue(), r.record().tsMicros() - 1)));
        }

        @Override
        public void finish() throws Exception {
            SEEN_AT_END.set(OpenWindows.ofThisTask().flatMap(w -> w.snapshot("orders")));
            super.finish();
        }
    }

    private static QueueRecord record(String partition, long offset, long ts) {
        return QueueRecord.of("orders", new LogRecord(partition, "id-" + partition, offset, "", ts,
                ("{\"o\":" + offset + "}").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void windowsCloseOnTheQueuesFrontierAndTheEndOfABoundedInputClosesNothingMore() throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        WindowSettings settings = new WindowSettings(WindowSettings.DEFAULT_TENANT, "itcase", WINDOW_MS, Align.HOUR,
                1 << 20, 1, broker.url().toString(), null, Duration.ofSeconds(5));
        List<QueueRecord> input = List.of(
                record("a", 0, T0 + 1), record("b", 0, T0 + 2), record("a", 1, T0 + W + 1), record("a", 2, T0 + W + 2));
        List<ClosedWindow> out = new ArrayList<>();
        try (CloseableIterator<ClosedWindow> it = env
                .fromData(QueueRecordTypeInfo.INSTANCE, input.toArray(QueueRecord[]::new))
                .transform("reader stand-in", QueueEventTypeInfo.INSTANCE, new AsQueueEvents())
                .transform("lake windows", ClosedWindowTypeInfo.INSTANCE, new LakeWindowOperator(settings, new Format.Jsonl(Compression.ZSTD)))
                .executeAndCollect("window operator end of input")) {
            it.forEachRemaining(out::add);
        }
        // The frontier after T0+W+1 reaches the first window's end; nothing reached the second's.
        assertThat(out).singleElement().satisfies(w -> {
            assertThat(w.k()).isEqualTo(1);
            assertThat(w.window().tEnd()).isEqualTo(T0 + W);
            assertThat(w.window().recordCount()).isEqualTo(2);
            assertThat(w.checkpoint()).isPresent();
        });
        assertThat(SEEN_AT_END.get()).as("the windows are chained: the reader's thread finds them")
                .hasValueSatisfying(s -> {
                    assertThat(s.cut().k()).isEqualTo(1);
                    assertThat(s.firstOpenOffsets()).isEqualTo(Map.of(PartitionSplit.splitId("orders", "a", "id-a"), 1L));
                });
    }

    @Test
    void windowsWiredByHandBehindAnExchangeRefuseToOpen() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(1);
        WindowSettings settings = new WindowSettings(WindowSettings.DEFAULT_TENANT, "itcase", WINDOW_MS, Align.HOUR,
                1 << 20, 1, broker.url().toString(), null, Duration.ofSeconds(5));
        // No LakePipeline (which would refuse this graph when it builds it): a rebalance puts the
        // windows in a task of their own, behind the network.
        var windows = env.fromData(QueueRecordTypeInfo.INSTANCE, record("a", 0, T0 + 1))
                .transform("reader stand-in", QueueEventTypeInfo.INSTANCE, new AsQueueEvents())
                .rebalance()
                .transform("lake windows", ClosedWindowTypeInfo.INSTANCE,
                        new LakeWindowOperator(settings, new Format.Jsonl(Compression.ZSTD)));
        assertThatThrownBy(() -> {
            try (CloseableIterator<ClosedWindow> it = windows.executeAndCollect("windows behind an exchange")) {
                it.forEachRemaining(w -> { });
            }
        }).satisfies(e -> assertThat(org.apache.flink.util.ExceptionUtils.findThrowableWithMessage(e,
                "must run chained to the source")).as("the refusal, somewhere in %s", e.toString()).isPresent());
    }
}
