package io.queenlake.source;

import io.queenlake.source.enumerator.QueenEnumState;
import io.queenlake.source.enumerator.QueenEnumStateSerializer;
import io.queenlake.source.enumerator.QueenSplitEnumerator;
import io.queenlake.source.reader.QueenSourceReader;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.PartitionSplitSerializer;
import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A FLIP-27 source that mirrors Queen MQ queue partitions by offset, with watermarks on the
 * broker's clock (docs/ARCHITECTURE.md "Time"). This class only assembles the parts: the enumerator
 * (discovery, safeTime, leases, presence, start positions), the reader (fetch, frontier, lost
 * ranges) and the serializers.
 *
 * <p>Use it with {@link #watermarkStrategy()}: the reader emits the broker-time watermarks itself,
 * so the strategy only keeps the record timestamps and aligns readers to about one window.
 */
public final class QueenSource implements Source<QueueRecord, PartitionSplit, QueenEnumState> {

    private static final long serialVersionUID = 1L;

    private final QueenSourceConfig config;

    QueenSource(QueenSourceConfig config) {
        this.config = config;
    }

    public static QueenSourceBuilder builder() {
        return new QueenSourceBuilder();
    }

    public QueenSourceConfig config() {
        return config;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<QueueRecord, PartitionSplit> createReader(SourceReaderContext context) {
        return QueenSourceReader.create(config, context);
    }

    @Override
    public SplitEnumerator<PartitionSplit, QueenEnumState> createEnumerator(
            SplitEnumeratorContext<PartitionSplit> context) {
        return new QueenSplitEnumerator(config, context, QueenEnumState.empty());
    }

    @Override
    public SplitEnumerator<PartitionSplit, QueenEnumState> restoreEnumerator(
            SplitEnumeratorContext<PartitionSplit> context, QueenEnumState state) {
        return new QueenSplitEnumerator(config, context, state);
    }

    @Override
    public SimpleVersionedSerializer<PartitionSplit> getSplitSerializer() {
        return new PartitionSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<QueenEnumState> getEnumeratorCheckpointSerializer() {
        return new QueenEnumStateSerializer();
    }

    /**
     * The strategy to pass to {@code env.fromSource}: record timestamps as emitted (the stamp's
     * millisecond), no generated watermarks (the reader emits broker-time ones), and readers kept
     * within about one window of each other so a backfill cannot flood the windows downstream.
     */
    public WatermarkStrategy<QueueRecord> watermarkStrategy() {
        return WatermarkStrategy.<QueueRecord>forGenerator(ctx -> new ReaderEmittedWatermarks())
                .withWatermarkAlignment(
                        "queen-lake", Duration.ofMillis(config.maxWindowMs()), alignmentUpdateInterval(config.maxWindowMs()));
    }

    /**
     * How often readers learn each other's watermark. Between two updates a backfilling reader runs
     * ahead unchecked by the others, and it reads broker time far faster than wall time: a tenth of
     * the window, between 50 ms and Flink's default of 1 s, keeps that run-ahead near one window.
     */
    static Duration alignmentUpdateInterval(long maxWindowMs) {
        return Duration.ofMillis(Math.max(50, Math.min(1_000, maxWindowMs / 10)));
    }
}
