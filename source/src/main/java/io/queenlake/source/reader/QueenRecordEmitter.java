package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.PartitionSplitState;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one {@link ReadItem} into output on the task thread: a {@link QueueRecord} with Flink
 * timestamp {@code floor(ts / 1000)} and the lost ranges before it (each logged once and counted),
 * or nothing for a record stamped below the split's start. Either way the split state and the
 * frontier advance past it.
 */
final class QueenRecordEmitter implements RecordEmitter<ReadItem, QueueRecord, PartitionSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenRecordEmitter.class);

    private final ReaderWatermarks watermarks;
    private final QueenSourceMetrics metrics;
    private final Map<PartitionSplit, String> splitIds = new IdentityHashMap<>();

    QueenRecordEmitter(ReaderWatermarks watermarks, QueenSourceMetrics metrics) {
        this.watermarks = watermarks;
        this.metrics = metrics;
    }

    @Override
    public void emitRecord(ReadItem item, SourceOutput<QueueRecord> output, PartitionSplitState state) {
        PartitionSplit split = state.split();
        String splitId = splitIds.computeIfAbsent(split, PartitionSplit::splitId);
        if (item instanceof ReadItem.Moved moved) {
            if (moved.checkpointed()) {
                state.setNextOffset(moved.nextOffset());
            }
            watermarks.onRead(splitId, Long.MIN_VALUE, moved.nextOffset());
            return;
        }
        ReadItem.Record read = (ReadItem.Record) item;
        FetchedRecord record = read.record();
        if (record.tsMicros() < split.skipBelowMicros()) {
            metrics.skipped(split.queue());
            for (LostRange lost : read.lostBefore()) {
                // Lost below the start time: inside a window already committed, not this read's loss.
                LOG.info("queue '{}' partition '{}' offsets {}..{} were trimmed before stamp {} us, where this read starts",
                        split.queue(), lost.partition(), lost.from(), lost.to(), split.skipBelowMicros());
            }
        } else {
            for (LostRange lost : read.lostBefore()) {
                LOG.warn("queue '{}' partition '{}' lost offsets {}..{} ({} records) before offset {}: "
                        + "the broker no longer had them when they were read",
                        split.queue(), lost.partition(), lost.from(), lost.to(), lost.count(), record.offset());
                metrics.lost(split.queue(), lost.count());
            }
            // The fetch decoder parsed the payload as a JSON value of the answer: the encoder need not again.
            LogRecord logRecord = new LogRecord(split.partition(), split.partitionId(), record.offset(),
                    record.transactionId(), record.tsMicros(), record.payload(), true);
            output.collect(new QueueRecord(split.queue(), logRecord, read.lostBefore()),
                    Math.floorDiv(record.tsMicros(), 1000L));
        }
        state.setNextOffset(record.offset() + 1);
        watermarks.onRead(splitId, record.tsMicros(), record.offset() + 1);
    }

    /** The split left this reader. */
    void forget(PartitionSplit split) {
        splitIds.remove(split);
    }
}
