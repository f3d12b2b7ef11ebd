package io.queenlake.source;

import io.queenlake.source.enumerator.QueenEnumState;
import io.queenlake.source.enumerator.QueenEnumStateSerializer;
import io.queenlake.source.enumerator.QueenSplitEnumerator;
import io.queenlake.source.reader.QueenSourceReader;
import io.queenlake.source.serde.QueueEventTypeInfo;
import io.queenlake.source.split.QueueSplit;
import io.queenlake.source.split.QueueSplitSerializer;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A FLIP-27 source that mirrors Queen MQ queues by offset, one split per queue, emitting each
 * queue's records and its own broker-clock frontier ({@link QueueEvent}, docs/ARCHITECTURE.md
 * "Time"). This class only assembles the parts: the enumerator
 * (discovery, safeTime, leases, presence, start positions), the reader (fetch, frontier, lost
 * ranges) and the serializers.
 *
 * <p>Use it with {@link #watermarkStrategy()}: the reader emits the broker-time watermarks itself,
 * so the strategy only keeps the record timestamps. There is no watermark alignment: it would
 * pace every queue by the slowest one, and each queue is paced by its own frontier instead.
 */
@PublicEvolving
public final class QueenSource implements Source<QueueEvent, QueueSplit, QueenEnumState>, ResultTypeQueryable<QueueEvent> {

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

    /** The events' own serializer ({@link QueueEventTypeInfo}), so {@code env.fromSource} needs no type hint and no Kryo. */
    @Override
    public TypeInformation<QueueEvent> getProducedType() {
        return QueueEventTypeInfo.INSTANCE;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<QueueEvent, QueueSplit> createReader(SourceReaderContext context) {
        return QueenSourceReader.create(config, context);
    }

    @Override
    public SplitEnumerator<QueueSplit, QueenEnumState> createEnumerator(
            SplitEnumeratorContext<QueueSplit> context) {
        return new QueenSplitEnumerator(config, context, QueenEnumState.empty());
    }

    @Override
    public SplitEnumerator<QueueSplit, QueenEnumState> restoreEnumerator(
            SplitEnumeratorContext<QueueSplit> context, QueenEnumState state) {
        return new QueenSplitEnumerator(config, context, state);
    }

    @Override
    public SimpleVersionedSerializer<QueueSplit> getSplitSerializer() {
        return new QueueSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<QueenEnumState> getEnumeratorCheckpointSerializer() {
        return new QueenEnumStateSerializer();
    }

    /**
     * The strategy to pass to {@code env.fromSource}: record timestamps as emitted (the stamp's
     * millisecond) and no generated watermarks (the reader emits broker-time ones).
     */
    public WatermarkStrategy<QueueEvent> watermarkStrategy() {
        return WatermarkStrategy.forGenerator(ctx -> new ReaderEmittedWatermarks());
    }
}
