package io.queenlake.source.reader;

import io.queenlake.source.QueueRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;

/**
 * A reader output that keeps every record with its timestamp and every watermark, in order, and
 * checks as it goes the promise a watermark makes: no record at or below it comes later. It also
 * measures the most payload bytes ever handed out above the watermark, which is what a window
 * operator downstream would hold open.
 */
final class RecordingReaderOutput implements ReaderOutput<QueueRecord> {

    record Stamped(QueueRecord record, long timestamp) {}

    final List<Stamped> records = new ArrayList<>();
    final List<Long> watermarks = new ArrayList<>();
    final List<String> brokenPromises = new ArrayList<>();
    /** Payload bytes of records emitted above the last watermark, by timestamp. */
    private final TreeMap<Long, Long> openBytes = new TreeMap<>();
    private long openTotal;
    long peakBytesAboveWatermark;

    @Override
    public void collect(QueueRecord record) {
        throw new AssertionError("QueenSource records always carry their broker timestamp: " + record);
    }

    @Override
    public void collect(QueueRecord record, long timestamp) {
        if (!watermarks.isEmpty() && timestamp <= lastWatermark()) {
            brokenPromises.add(record + " at " + timestamp + " after watermark " + lastWatermark());
        }
        records.add(new Stamped(record, timestamp));
        openBytes.merge(timestamp, (long) record.record().payload().length, Long::sum);
        openTotal += record.record().payload().length;
        peakBytesAboveWatermark = Math.max(peakBytesAboveWatermark, openTotal);
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        if (!watermarks.isEmpty() && watermark.getTimestamp() <= lastWatermark()) {
            brokenPromises.add("watermark " + watermark.getTimestamp() + " did not rise above " + lastWatermark());
        }
        watermarks.add(watermark.getTimestamp());
        SortedMap<Long, Long> closed = openBytes.headMap(watermark.getTimestamp(), true);
        closed.values().forEach(bytes -> openTotal -= bytes);
        closed.clear();
    }

    /** The watermarks from the broker's clock, without the reader's first one that promises nothing. */
    List<Long> clockWatermarks() {
        return watermarks.stream().filter(w -> w != ReaderWatermarks.NOTHING_YET).toList();
    }

    long lastWatermark() {
        return watermarks.isEmpty() ? Long.MIN_VALUE : watermarks.get(watermarks.size() - 1);
    }

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<QueueRecord> createOutputForSplit(String splitId) {
        return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
}
