package io.queenlake.source.reader;

import io.queenlake.source.QueueEvent;
import io.queenlake.source.QueueFrontier;
import io.queenlake.source.QueueRecord;
import io.queenlake.source.QueueStart;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;

/**
 * A reader output that keeps every event in order (records with their timestamps, queue starts,
 * queue frontiers) and every watermark, and checks as it goes the promises they make: a queue's
 * first event is its start; no record of a queue comes at or below that queue's last frontier; a
 * queue's frontiers only rise; no record comes at or below the Flink watermark. It also measures
 * the most payload bytes ever handed out above the watermark, which is what a window operator
 * downstream would hold open.
 */
final class RecordingReaderOutput implements ReaderOutput<QueueEvent> {

    record Stamped(QueueRecord record, long timestamp) {}

    final List<Stamped> records = new ArrayList<>();
    final List<QueueEvent> events = new ArrayList<>();
    final List<Long> watermarks = new ArrayList<>();
    final List<String> brokenPromises = new ArrayList<>();
    /** Per queue, its last frontier in microseconds. */
    final Map<String, Long> frontiers = new HashMap<>();
    private final Set<String> started = new HashSet<>();
    /** Payload bytes of records emitted above the last watermark, by timestamp. */
    private final TreeMap<Long, Long> openBytes = new TreeMap<>();
    private long openTotal;
    long peakBytesAboveWatermark;

    @Override
    public void collect(QueueEvent event) {
        if (event instanceof QueueRecord record) {
            throw new AssertionError("QueenSource records always carry their broker timestamp: " + record);
        }
        checkStarted(event);
        events.add(event);
        if (event instanceof QueueStart start && !started.add(start.queue())) {
            brokenPromises.add("queue '" + start.queue() + "' started twice");
        }
        if (event instanceof QueueFrontier frontier) {
            Long before = frontiers.get(frontier.queue());
            if (before != null && frontier.frontierMicros() <= before) {
                brokenPromises.add("frontier " + frontier + " did not rise above " + before);
            }
            frontiers.put(frontier.queue(), frontier.frontierMicros());
        }
    }

    @Override
    public void collect(QueueEvent event, long timestamp) {
        if (!(event instanceof QueueRecord record)) {
            collect(event);
            return;
        }
        checkStarted(event);
        if (!watermarks.isEmpty() && timestamp <= lastWatermark()) {
            brokenPromises.add(record + " at " + timestamp + " after watermark " + lastWatermark());
        }
        Long frontier = frontiers.get(record.queue());
        if (frontier != null && record.record().tsMicros() <= frontier) {
            brokenPromises.add(record + " after its queue's frontier " + frontier);
        }
        events.add(record);
        records.add(new Stamped(record, timestamp));
        openBytes.merge(timestamp, (long) record.record().payload().length, Long::sum);
        openTotal += record.record().payload().length;
        peakBytesAboveWatermark = Math.max(peakBytesAboveWatermark, openTotal);
    }

    private void checkStarted(QueueEvent event) {
        if (!(event instanceof QueueStart) && !started.contains(event.queue())) {
            brokenPromises.add(event + " before its queue's start");
        }
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

    long lastWatermark() {
        return watermarks.isEmpty() ? Long.MIN_VALUE : watermarks.get(watermarks.size() - 1);
    }

    List<QueueStart> starts() {
        return events.stream().filter(e -> e instanceof QueueStart).map(e -> (QueueStart) e).toList();
    }

    /** Every frontier of {@code queue} emitted, in order. */
    List<Long> frontiersOf(String queue) {
        return events.stream().filter(e -> e instanceof QueueFrontier f && f.queue().equals(queue))
                .map(e -> ((QueueFrontier) e).frontierMicros()).toList();
    }

    /** The queue's last frontier, {@link Long#MIN_VALUE} before the first. */
    long frontierOf(String queue) {
        return frontiers.getOrDefault(queue, Long.MIN_VALUE);
    }

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<QueueEvent> createOutputForSplit(String splitId) {
        return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
}
