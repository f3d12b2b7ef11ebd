package io.queenlake.source.reader;

import io.queenlake.broker.client.FetchedRecord;
import io.queenlake.format.model.LogRecord;
import io.queenlake.format.model.LostRange;
import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.metrics.QueenSourceMetrics;
import io.queenlake.source.split.PartitionSplit;
import io.queenlake.source.split.PartitionSplitState;
import io.queenlake.source.split.QueueSplitState;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one {@link ReadItem} into output on the task thread: a {@link QueueRecord} with Flink timestamp {@code floor(ts / 1000)}
 * and the lost ranges before it (each logged once and counted), or nothing for a record stamped
 * below its partition's start. Either way the split state and the queue's frontier advance past it;
 * partitions joining and leaving change both.
 */
final class QueenRecordEmitter implements RecordEmitter<ReadItem, QueueEvent, QueueSplitState> {

    private static final Logger LOG = LoggerFactory.getLogger(QueenRecordEmitter.class);

    private final ReaderWatermarks watermarks;
    private final QueenSourceMetrics metrics;
    /** Each partition's split id, built once (escaping the names on every record cost the read path). */
    private final Map<PartitionSplit, String> splitIds = new IdentityHashMap<>();

    QueenRecordEmitter(ReaderWatermarks watermarks, QueenSourceMetrics metrics) {
        this.watermarks = watermarks;
        this.metrics = metrics;
    }

    @Override
    public void emitRecord(ReadItem item, SourceOutput<QueueEvent> output, QueueSplitState state) {
        String queue = state.queue();
        if (item instanceof ReadItem.Record read) {
            emit(read, output, state);
        } else if (item instanceof ReadItem.Moved moved) {
            PartitionSplit split = moved.partition();
            String splitId = splitIdOf(split);
            PartitionSplitState partition = state.partition(splitId);
            if (partition != null && moved.checkpointed()) {
                partition.setNextOffset(moved.nextOffset());
            }
            watermarks.onRead(queue, splitId, Long.MIN_VALUE, moved.nextOffset());
        } else if (item instanceof ReadItem.Added added) {
            state.add(added.partition());
            watermarks.addPartition(queue, added.partition());
        } else if (item instanceof ReadItem.Retired retired) {
            String splitId = splitIdOf(retired.partition());
            splitIds.remove(retired.partition());
            state.retire(splitId, retired.lost());
            watermarks.removePartition(queue, splitId);
        }
    }

    private void emit(ReadItem.Record read, SourceOutput<QueueEvent> output, QueueSplitState state) {
        PartitionSplit split = read.partition();
        FetchedRecord record = read.record();
        List<LostRange> lostBefore = read.lostBefore();
        if (state.hasPendingLost()) {
            List<LostRange> carried = state.takeLost(split.partition());
            if (!carried.isEmpty()) {
                lostBefore = new ArrayList<>(carried);
                lostBefore.addAll(read.lostBefore());
            }
        }
        if (record.tsMicros() < split.skipBelowMicros()) {
            metrics.skipped();
            for (LostRange lost : lostBefore) {
                // Lost below the start time: inside a window already committed, not this read's loss.
                LOG.info("queue '{}' partition '{}' offsets {}..{} were trimmed before stamp {} us, where this read starts",
                        split.queue(), lost.partition(), lost.from(), lost.to(), split.skipBelowMicros());
            }
        } else {
            for (LostRange lost : lostBefore) {
                LOG.warn("queue '{}' partition '{}' lost offsets {}..{} ({} records) before offset {}: "
                        + "the broker no longer had them when they were read",
                        split.queue(), lost.partition(), lost.from(), lost.to(), lost.count(), record.offset());
                metrics.lost(lost.count());
            }
            // The fetch decoder parsed the payload as a JSON value of the answer: the encoder need not again.
            LogRecord logRecord = new LogRecord(split.partition(), split.partitionId(), record.offset(),
                    record.transactionId(), record.tsMicros(), record.payload(), true);
            output.collect(new QueueRecord(split.queue(), logRecord, lostBefore), Math.floorDiv(record.tsMicros(), 1000L));
        }
        String splitId = splitIdOf(split);
        PartitionSplitState partition = state.partition(splitId);
        if (partition != null) {
            partition.setNextOffset(record.offset() + 1);
        }
        watermarks.onRead(state.queue(), splitId, record.tsMicros(), record.offset() + 1);
    }

    private String splitIdOf(PartitionSplit split) {
        return splitIds.computeIfAbsent(split, PartitionSplit::splitId);
    }
}
