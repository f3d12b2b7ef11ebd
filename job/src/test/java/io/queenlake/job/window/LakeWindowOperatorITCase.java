package io.queenlake.job.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.queenlake.devstack.broker.DevBroker;
import io.queenlake.devstack.broker.DevBrokerOptions;
import io.queenlake.format.model.Align;
import io.queenlake.format.model.LogRecord;
import io.queenlake.job.window.ClosedWindowTypeInfo;
import io.queenlake.job.serde.QueueRecordTypeInfo;
import io.queenlake.source.QueueRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The window operator in a real Flink job: the end of a bounded input sends Flink's final
 * watermark, which must close nothing that the broker clock did not close; and the whole path runs
 * with generic types (Kryo) disabled.
 */
class LakeWindowOperatorITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final long T0 = 1_791_007_200_000_000L;
    private static final long WINDOW_MS = 60_000;
    private static final long W = WINDOW_MS * 1000;

    private static DevBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = DevBroker.start(DevBrokerOptions.builder().build());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    /** A broker-time promise after every record: nothing at or below the record's millisecond minus one is still to come. */
    static final class AfterEachRecord implements WatermarkGenerator<QueueRecord> {
        @Override
        public void onEvent(QueueRecord record, long timestamp, WatermarkOutput output) {
            output.emitWatermark(new Watermark(timestamp - 1));
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }

    private static QueueRecord record(String partition, long offset, long ts) {
        return QueueRecord.of("orders", new LogRecord(partition, "", offset, "", ts,
                ("{\"o\":" + offset + "}").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theEndOfABoundedInputClosesOnlyWindowsTheBrokerClockClosed() throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        WindowSettings settings = new WindowSettings(WindowSettings.DEFAULT_TENANT, "itcase", WINDOW_MS, Align.HOUR,
                1 << 20, 1, broker.url().toString(), null, Duration.ofSeconds(5));
        List<QueueRecord> input = List.of(
                record("a", 0, T0 + 1), record("b", 0, T0 + 2), record("a", 1, T0 + W + 1), record("a", 2, T0 + W + 2));
        List<ClosedWindow> out = new ArrayList<>();
        try (CloseableIterator<ClosedWindow> it = env.fromData(QueueRecordTypeInfo.INSTANCE, input.toArray(QueueRecord[]::new))
                .assignTimestampsAndWatermarks(WatermarkStrategy.<QueueRecord>forGenerator(ctx -> new AfterEachRecord())
                        .withTimestampAssigner((r, ignored) -> Math.floorDiv(r.record().tsMicros(), 1000L)))
                .keyBy(QueueRecord::queue, Types.STRING)
                .transform("lake windows", ClosedWindowTypeInfo.INSTANCE, new LakeWindowOperator(settings))
                .executeAndCollect("window operator end of input")) {
            it.forEachRemaining(out::add);
        }
        // The record at T0+W+1 promises everything below the first window's end; nothing promised the second's.
        assertThat(out).singleElement().satisfies(w -> {
            assertThat(w.k()).isEqualTo(1);
            assertThat(w.window().tEnd()).isEqualTo(T0 + W);
            assertThat(w.window().records()).hasSize(2);
            assertThat(w.checkpoint()).isPresent();
        });
    }
}
